using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Text;

var client = new HttpClient();
var request = new HttpRequestMessage(new HttpMethod("PATCH"), "https://echo.invalid/v2/notes/%3CnoteId%3E?api_key=%3Capi-key%3E");
request.Content = new StringContent(@"it's ""done"" \ $HOME #{x}
line 2", Encoding.UTF8, "text/plain");

using var response = await client.SendAsync(request);
Console.WriteLine(await response.Content.ReadAsStringAsync());
