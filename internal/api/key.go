package api

import (
	"errors"
	"regexp"
)

// keyShape is what every admin key looks like, whatever the server's
// prefix: "<prefix>_<secret>", the prefix 2 to 16 lower-case letters or
// digits starting with a letter (the reference server's keyPrefix rule,
// "dak" by default; "mint" on the real service), the secret 16 to 128
// letters or digits.
var keyShape = regexp.MustCompile(`^[a-z][a-z0-9]{1,15}_[A-Za-z0-9]{16,128}$`)

// CheckKeyShape tells a key that cannot be any server's admin key, such
// as one pasted with "Bearer ", quotes or a line break, or cut short,
// without asking a server. The error never contains the key.
func CheckKeyShape(k string) error {
	if !keyShape.MatchString(k) {
		return errors.New(`an admin API key looks like <prefix>_<secret>, such as dak_… or mint_…, ` +
			`with a secret of 16 to 128 letters or digits`)
	}
	return nil
}
