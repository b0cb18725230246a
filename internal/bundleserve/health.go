package bundleserve

import "errors"

// Reasons the probes give. The public /healthz says only these words (and
// content versions, which are hashes): an upstream's error text or a local
// path stays in the log, where the same failure is told in full.
const (
	reasonNoBundle        = "no-bundle-yet"
	reasonFilesMissing    = "files-missing"
	reasonFilesChanged    = "files-changed"
	reasonLinkUnreadable  = "link-unreadable"
	reasonLinkInvalid     = "link-invalid"
	reasonDownloadFailed  = "download-failed"
	reasonDownloadStalled = "download-stalled"
	reasonDownloadTooSlow = "download-too-slow"
	reasonRedirectRefused = "redirect-refused"
	reasonBundleRefused   = "bundle-refused"
	reasonVersionRefused  = "version-refused"
	reasonInstallFailed   = "install-failed"
	// reasonUpdateFailed is for an update error of no known kind.
	reasonUpdateFailed = "update-failed"
)

// problem is why a probe is red: a reason word for the probe and the full
// error for the log and for Update's caller.
type problem struct {
	reason string
	err    error
	// fields are extra probe fields that are safe to publish.
	fields map[string]string
}

func (p *problem) Error() string { return p.err.Error() }
func (p *problem) Unwrap() error { return p.err }

func fail(reason string, err error) *problem { return &problem{reason: reason, err: err} }

// reasonOf is the probe's word for err; an error of no known kind is
// "unhealthy", never its text.
func reasonOf(err error) (string, map[string]string) {
	var p *problem
	if errors.As(err, &p) {
		return p.reason, p.fields
	}
	return "unhealthy", nil
}

// refused reports whether err is a bundle that downloaded but was refused:
// fetching the same link again would give the same bundle, so it is not
// fetched again until its back-off has passed.
func refused(err error) bool {
	var p *problem
	return errors.As(err, &p) && (p.reason == reasonBundleRefused || p.reason == reasonVersionRefused)
}

// transient reports whether err is a download that failed on the way
// (the upstream answered an error, stalled, trickled, or redirected where
// it must not): the same link may work later, so it is tried again, but
// after a back-off that grows with every failure rather than at every
// check interval.
func transient(err error) bool {
	var p *problem
	if !errors.As(err, &p) {
		return false
	}
	switch p.reason {
	case reasonDownloadFailed, reasonDownloadStalled, reasonDownloadTooSlow, reasonRedirectRefused:
		return true
	}
	return false
}
