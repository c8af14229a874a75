// Package browser holds the service's browser tests: Debian's Chromium,
// driven from Go with chromedp, plays a whole game as players would, only
// by clicking. Each seat enters from the link in its latest mail (read
// from aws-ses-v2-local), makes its decisions on the page and the game
// ends on the game-over page. On the way the tests check that no page
// loads anything from outside the service, that each page stays light,
// and that axe-core finds no serious accessibility violation; they write
// screenshots of the pages to $PBM_ARTIFACTS (default
// <repo>/artifacts/screenshots).
//
// The package has no code of its own: only this file and tests.
package browser
