package config

import (
	"regexp"
	"testing"
)

// The regular expressions the hand-written checks replace (issue 16:
// compiling them cost every cold start).
var (
	tableNameRE  = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,255}$`)
	tableARNRE   = regexp.MustCompile(`^arn:[a-z0-9-]+:dynamodb:[a-z0-9-]+:[0-9]{12}:table/[A-Za-z0-9_.-]{3,255}$`)
	sesSetNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

var nameSeeds = []string{
	"", "ab", "abc", "pbm-table", "a b", "pbm.table_1", "таблица", "pbm\n",
	"arn:aws:dynamodb:eu-west-1:123456789012:table/pbm",
	"arn:aws-cn:dynamodb:cn-north-1:123456789012:table/pbm.games_2",
	"arn:aws:dynamodb:eu-west-1:12345678901:table/pbm",
	"arn:aws:dynamodb:eu-west-1:123456789012:table/pb",
	"arn:AWS:dynamodb:eu-west-1:123456789012:table/pbm",
	"arn:aws:dynamodb::123456789012:table/pbm",
	"arn:aws:dynamodb:eu-west-1:123456789012:index/pbm",
	"arn:aws:dynamodb:eu-west-1:123456789012:table/pbm:x",
	"arn:aws:s3:eu-west-1:123456789012:table/pbm",
	"pbm-mail", "pbm.mail", "x", string(make([]byte, 65)),
}

// FuzzNamesAsTheRegexps: the checks accept exactly what the regular
// expressions did.
func FuzzNamesAsTheRegexps(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validTable(s), tableNameRE.MatchString(s) || tableARNRE.MatchString(s); got != want {
			t.Errorf("validTable(%q) = %v, the regexps say %v", s, got, want)
		}
		if got, want := validSESSetName(s), sesSetNameRE.MatchString(s); got != want {
			t.Errorf("validSESSetName(%q) = %v, the regexp says %v", s, got, want)
		}
	})
}
