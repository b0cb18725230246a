using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Text;

var client = new HttpClient();
var request = new HttpRequestMessage(new HttpMethod("PUT"), "https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true");
request.Headers.TryAddWithoutValidation("X-Request-Id", "req-7");
request.Headers.TryAddWithoutValidation("Authorization", "Bearer <token>");
request.Headers.TryAddWithoutValidation("Cookie", "session=s1");
request.Content = new StringContent(@"{
  ""name"": ""Shoe"",
  ""price"": 12.5,
  ""tags"": [
    ""red"",
    ""it's""
  ],
  ""stock"": null,
  ""active"": false
}", Encoding.UTF8, "application/json");

using var response = await client.SendAsync(request);
Console.WriteLine(await response.Content.ReadAsStringAsync());
