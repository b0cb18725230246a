using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Text;

var client = new HttpClient();
var request = new HttpRequestMessage(new HttpMethod("POST"), "https://echo.invalid/v2/uploads");
request.Headers.TryAddWithoutValidation("X-API-Key", "<api-key>");
var form = new MultipartFormDataContent();
form.Add(new StringContent("report"), "title");
form.Add(new ByteArrayContent(File.ReadAllBytes("file.bin")), "file", "file.bin");
request.Content = form;

using var response = await client.SendAsync(request);
Console.WriteLine(await response.Content.ReadAsStringAsync());
