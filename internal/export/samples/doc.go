// Package samples writes the request examples of an endpoint page in each
// language the platform offers (cURL, Python, JavaScript, Node.js, Go,
// Ruby, PHP, Java, C#), from the openapi model of the endpoint.
//
// It writes source code as text and knows nothing of HTML, pages or
// docs.json: the API pages highlight and escape what it returns.
package samples
