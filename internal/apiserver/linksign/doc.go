// Package linksign issues and checks the presigned bundle links of the
// reference server when it keeps archives in its data dir: an HMAC over
// the job, the file, the expiry and the key id, keyed by a ring of
// secrets kept in the data dir, so links survive a restart and a leaked
// key can be rotated out (`apiserver rotate-signing-key`).
//
// It knows the key ring file and the link's query parameters, nothing of
// jobs, HTTP handlers, the job store or the object store (whose links are
// SigV4 presigned by objstore instead). It never imports the server.
package linksign
