// Package config reads a Lambda function's own configuration from its
// environment (set by template.yaml): its table, where its link-signing
// keys are, its mail settings and its limits. The AWS settings (region,
// credentials, endpoints) are the SDK's to find (its config package);
// the keys are read by package linkkeys.
package config

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"os"
	"strconv"
	"strings"
	"unicode"
)

// The environment variables FromEnv reads.
const (
	EnvTable         = "TABLE_NAME"          // required: the DynamoDB table
	EnvLinkKeysParam = "LINK_KEYS_PARAMETER" // SSM SecureString with the keyring JSON
	// EnvLinkKeysSecret named a Secrets Manager secret holding the
	// keyring. It is no longer read: set, it fails the configuration
	// with a word on where the keys go now (ParseFor).
	EnvLinkKeysSecret   = "LINK_KEYS_SECRET"
	EnvBaseURL          = "BASE_URL"              // optional public origin for links
	EnvMailFrom         = "MAIL_FROM"             // optional From address of mail
	EnvSESConfiguration = "SES_CONFIGURATION_SET" // optional SES configuration set

	// Optional limits on the games made (0 or unset: the service's
	// defaults, service.DefaultLimits).
	EnvGamesPerOrganiserHour = "GAMES_PER_ORGANISER_HOUR"
	EnvGamesPerOrganiserDay  = "GAMES_PER_ORGANISER_DAY"
	EnvGamesPerClientHour    = "GAMES_PER_CLIENT_HOUR"
	EnvGamesPerClientDay     = "GAMES_PER_CLIENT_DAY"
	EnvConfirmedDays         = "CONFIRMED_DAYS" // days a confirmed organiser address invites without confirming again
)

// Config is a function's configuration. It holds names only, no secrets.
type Config struct {
	// Table is the DynamoDB table's name (or ARN).
	Table string
	// LinkKeysParameter is the name (or ARN) of the SSM Parameter Store
	// SecureString holding the keyring JSON linksign.ParseKeyring reads;
	// set if the function needs the keys (NeedLinkKeys).
	LinkKeysParameter string
	// BaseURL is the public origin links point to ("https://pbm.example",
	// no trailing slash), or "" for links relative to the request's origin.
	BaseURL string
	// MailFrom is the From address of mail ("Name <addr@example.org>"), or "".
	MailFrom string
	// SESConfigurationSet is the SES configuration set mail is sent with, or "".
	SESConfigurationSet string
	// Limits on the games made; 0 takes the service's default.
	GamesPerOrganiserHour, GamesPerOrganiserDay int
	GamesPerClientHour, GamesPerClientDay       int
	ConfirmedDays                               int
}

// Need says what a function needs from its environment besides its table.
type Need uint

// The needs of the functions.
const (
	// NeedLinkKeys: the keyring's location, LINK_KEYS_PARAMETER (the
	// API, the notifier and the sweep sign links).
	NeedLinkKeys Need = 1 << iota
	// NeedMail: MAIL_FROM, SES_CONFIGURATION_SET and BASE_URL (the links in
	// mail must be absolute) for the functions that send mail.
	NeedMail
)

// FromEnv reads the configuration of the API function from the process
// environment (the table and the link keys) and checks it, reporting every
// problem at once.
func FromEnv(ctx context.Context) (Config, error) {
	return Parse(os.LookupEnv)
}

// FromEnvFor is FromEnv for a function that needs what need says, and the
// table.
func FromEnvFor(ctx context.Context, need Need) (Config, error) {
	return ParseFor(os.LookupEnv, need)
}

// Parse reads the API function's configuration through lookup (os.LookupEnv,
// or a map in tests): ParseFor with NeedLinkKeys.
func Parse(lookup func(string) (string, bool)) (Config, error) {
	return ParseFor(lookup, NeedLinkKeys)
}

// ParseFor reads the configuration through lookup. Values are trimmed of
// surrounding space; an empty value counts as unset. The table is always
// required, and what need names too; what is set but not needed is still
// checked.
func ParseFor(lookup func(string) (string, bool), need Need) (Config, error) {
	get := func(k string) string {
		v, _ := lookup(k)
		return strings.TrimSpace(v)
	}
	c := Config{
		Table:               get(EnvTable),
		LinkKeysParameter:   get(EnvLinkKeysParam),
		BaseURL:             get(EnvBaseURL),
		MailFrom:            get(EnvMailFrom),
		SESConfigurationSet: get(EnvSESConfiguration),
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }

	switch {
	case c.Table == "":
		bad("%s is required", EnvTable)
	case !validTable(c.Table):
		bad("%s %q is not a DynamoDB table name (3-255 of [A-Za-z0-9_.-]) or table ARN", EnvTable, c.Table)
	}

	// The keys were once allowed in a Secrets Manager secret too. A
	// deployment still naming one is told, not left to find its links
	// unsigned: the one place is an SSM SecureString, the one the
	// template makes, grants and the IAM check verifies.
	if get(EnvLinkKeysSecret) != "" {
		bad("%s is no longer read: put the keyring in an SSM SecureString parameter and name it in %s", EnvLinkKeysSecret, EnvLinkKeysParam)
	}
	switch {
	case c.LinkKeysParameter == "" && need&NeedLinkKeys != 0:
		bad("%s is required: the SSM SecureString holding the link-signing keys", EnvLinkKeysParam)
	case c.LinkKeysParameter != "" && !validResourceName(c.LinkKeysParameter):
		bad("%s is not an SSM parameter name or ARN", EnvLinkKeysParam)
	}

	if need&NeedMail != 0 {
		for _, v := range []struct{ name, val string }{
			{EnvMailFrom, c.MailFrom}, {EnvSESConfiguration, c.SESConfigurationSet}, {EnvBaseURL, c.BaseURL},
		} {
			if v.val == "" {
				bad("%s is required to send mail", v.name)
			}
		}
	}

	if c.BaseURL != "" {
		base, err := cleanBaseURL(c.BaseURL)
		if err != nil {
			bad("%s: %v", EnvBaseURL, err)
		}
		c.BaseURL = base
	}

	if c.MailFrom != "" {
		if _, err := mail.ParseAddress(c.MailFrom); err != nil {
			bad("%s %q is not a mail address: %v", EnvMailFrom, c.MailFrom, err)
		}
	}

	if c.SESConfigurationSet != "" && !validSESSetName(c.SESConfigurationSet) {
		bad("%s %q is not an SES configuration set name (1-64 of [A-Za-z0-9_-])", EnvSESConfiguration, c.SESConfigurationSet)
	}

	for _, l := range []struct {
		name string
		dst  *int
		max  int
	}{
		{EnvGamesPerOrganiserHour, &c.GamesPerOrganiserHour, 1_000_000}, {EnvGamesPerOrganiserDay, &c.GamesPerOrganiserDay, 1_000_000},
		{EnvGamesPerClientHour, &c.GamesPerClientHour, 1_000_000}, {EnvGamesPerClientDay, &c.GamesPerClientDay, 1_000_000},
		{EnvConfirmedDays, &c.ConfirmedDays, 3650},
	} {
		v := get(l.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > l.max {
			bad("%s %q is not a whole number from 0 to %d", l.name, v, l.max)
			continue
		}
		*l.dst = n
	}

	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
}

// The names are checked by hand, not with regular expressions: compiling
// them at start took 0.8–1.4 ms of every cold start (issue 16).

// validTable accepts a DynamoDB table name ([A-Za-z0-9_.-]{3,255}) or a
// table's ARN (arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME).
func validTable(s string) bool {
	if validTableName(s) {
		return true
	}
	p := strings.Split(s, ":")
	if len(p) != 6 || p[0] != "arn" || p[2] != "dynamodb" ||
		!charsIn(p[1], 1, len(p[1]), isLowerDigitDash) || !charsIn(p[3], 1, len(p[3]), isLowerDigitDash) ||
		!charsIn(p[4], 12, 12, isDigit) {
		return false
	}
	name, ok := strings.CutPrefix(p[5], "table/")
	return ok && validTableName(name)
}

func validTableName(s string) bool {
	return charsIn(s, 3, 255, func(r byte) bool { return isAlnum(r) || r == '_' || r == '.' || r == '-' })
}

// validSESSetName accepts [A-Za-z0-9_-]{1,64}.
func validSESSetName(s string) bool {
	return charsIn(s, 1, 64, func(r byte) bool { return isAlnum(r) || r == '_' || r == '-' })
}

// charsIn tells whether s has min to max bytes, each one ok says is allowed.
func charsIn(s string, min, max int, ok func(byte) bool) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(r byte) bool          { return '0' <= r && r <= '9' }
func isAlnum(r byte) bool          { return isDigit(r) || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }
func isLowerDigitDash(r byte) bool { return isDigit(r) || 'a' <= r && r <= 'z' || r == '-' }

// validResourceName accepts an SSM parameter name or ARN: 1 to 2048
// printable characters without spaces. AWS checks the rest.
func validResourceName(s string) bool {
	if len(s) > 2048 {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return false
		}
	}
	return s != ""
}

// cleanBaseURL checks that s is an http(s) origin, optionally with a path
// prefix, and drops a trailing slash.
func cleanBaseURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("%q is not a URL", s)
	}
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return "", fmt.Errorf("%q: want an https:// (or http://) URL", s)
	case u.Host == "":
		return "", fmt.Errorf("%q has no host", s)
	case u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return "", fmt.Errorf("%q: want scheme, host and path only", s)
	}
	return strings.TrimRight(s, "/"), nil
}

// KeySource describes where the keyring comes from, for logs.
func (c Config) KeySource() string {
	if c.LinkKeysParameter != "" {
		return "ssm:" + c.LinkKeysParameter
	}
	return "none"
}
