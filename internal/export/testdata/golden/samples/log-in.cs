using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Text;

var client = new HttpClient();
var request = new HttpRequestMessage(new HttpMethod("POST"), "https://echo.invalid/v2/login");
request.Headers.TryAddWithoutValidation("Authorization", "Basic <credentials>");
request.Content = new FormUrlEncodedContent(new[]
{
    new KeyValuePair<string, string>("username", "ada"),
    new KeyValuePair<string, string>("scope", "read write"),
});

using var response = await client.SendAsync(request);
Console.WriteLine(await response.Content.ReadAsStringAsync());
