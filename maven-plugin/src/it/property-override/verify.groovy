// The docs' setup (racelint.failOn=error as a project property) with -Dracelint.failOn=none on the
// command line: the finding is still reported and written, and the build passes.
def log = new File(basedir, 'build.log').text

assert log.contains('[io-in-transaction] placeOrder() runs inside a transaction')
assert log.contains('racelint: 1 finding (1 error, 0 warnings, 0 notes) in 1 file.')
assert !log.contains('racelint found 1 finding at or above')
assert log.contains('BUILD SUCCESS')
assert new File(basedir, 'target/racelint.sarif').isFile()
return true
