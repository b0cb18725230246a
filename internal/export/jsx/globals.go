package jsx

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
	nodeurl "github.com/dop251/goja_nodejs/url"
)

// The browser's globals that snippets assume at render time, as far as a
// static render can honour them: base64 (btoa, atob), UTF-8 (TextEncoder
// and TextDecoder, written in prelude.js over the helpers here), URL and
// URLSearchParams (goja_nodejs's WHATWG implementation), structuredClone
// (prelude.js). Nothing here reaches outside the runtime; timers, fetch
// and storage stay undefined, since nothing runs after the render.

// hostGlobals puts the Go helpers of the prelude's globals on the host
// object, which the prelude keeps to itself.
func hostGlobals(vm *goja.Runtime, host *goja.Object) {
	_ = host.Set("btoa", func(s string) string {
		b := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 0xFF {
				throw(vm, errInvalidCharacter("btoa", "the string has characters outside Latin-1"))
			}
			b = append(b, byte(r))
		}
		return base64.StdEncoding.EncodeToString(b)
	})
	_ = host.Set("atob", func(s string) string {
		s = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
				return -1
			}
			return r
		}, s)
		// Forgiving base64: padding may be left out.
		b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		if err != nil || (len(s)%4 == 1) {
			throw(vm, errInvalidCharacter("atob", "the string is not valid base64"))
		}
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c) // Latin-1: one character per byte
		}
		return string(r)
	})
	_ = host.Set("utf8Encode", func(s string) goja.ArrayBuffer {
		return vm.NewArrayBuffer([]byte(strings.ToValidUTF8(s, "\uFFFD")))
	})
	_ = host.Set("utf8Decode", func(b goja.Value, fatal bool) string {
		var raw []byte
		switch v := b.Export().(type) {
		case goja.ArrayBuffer:
			raw = v.Bytes()
		case []byte:
			raw = v
		}
		if fatal && !utf8.Valid(raw) {
			panic(vm.NewTypeError("TextDecoder: the bytes are not valid UTF-8"))
		}
		return strings.ToValidUTF8(string(raw), "\uFFFD")
	})
	// URL costs a module's set-up, so it is made on first use.
	var urlExports *goja.Object
	_ = host.Set("url", func() *goja.Object {
		if urlExports == nil {
			module := vm.NewObject()
			urlExports = vm.NewObject()
			_ = module.Set("exports", urlExports)
			nodeurl.Require(vm, module)
		}
		return urlExports
	})
}

type domError struct{ fn, msg string }

func (e domError) Error() string { return "InvalidCharacterError: " + e.fn + ": " + e.msg }

func errInvalidCharacter(fn, msg string) error { return domError{fn, msg} }
