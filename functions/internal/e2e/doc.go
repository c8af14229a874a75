// Package e2e holds the service's end-to-end tests: the real HTTP handler
// over real servers (dynalite for DynamoDB) on loopback, driven only
// through HTTP as players would.
package e2e
