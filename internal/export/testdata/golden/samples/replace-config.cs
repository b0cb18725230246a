using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Text;

var client = new HttpClient();
var request = new HttpRequestMessage(new HttpMethod("PUT"), "https://echo.invalid/v2/config");
request.Content = new StringContent(@"{
  ""name"": ""web"",
  ""replicas"": 2
}", Encoding.UTF8, "application/yaml");

using var response = await client.SendAsync(request);
Console.WriteLine(await response.Content.ReadAsStringAsync());
