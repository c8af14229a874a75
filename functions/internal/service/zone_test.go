package service

import "testing"

// TestZoneOf: a player's time zone is an IANA zone's name or "" (UTC);
// nothing else — not the server's Local, not a path — is taken.
func TestZoneOf(t *testing.T) {
	for tz, ok := range map[string]bool{
		"": true, "UTC": true, "Europe/Moscow": true, "Asia/Tokyo": true, "America/Argentina/Buenos_Aires": true,
		"Local": false, "../../etc/passwd": false, "/etc/localtime": false, "Mars/Olympus": false,
	} {
		z, err := ZoneOf(tz)
		if (err == nil) != ok {
			t.Errorf("ZoneOf(%q) = %v, %v", tz, z, err)
		}
	}
}
