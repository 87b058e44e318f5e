// Package e2e holds the end-to-end test of the web page that `envguard
// serve` answers at /: headless Chromium (Debian's chromium package, which
// .ci/install-chromium installs) driven through chromedp, against the real
// router over the real pipeline.
//
// Without a browser the test skips and says so; ENVGUARD_REQUIRE_BROWSER=1
// (set by .ci/run) makes that a failure. ENVGUARD_ARTIFACTS names a
// directory for the screenshots (default: the test's temporary directory);
// ENVGUARD_CHROMIUM names the browser binary where it is not on PATH.
package e2e
