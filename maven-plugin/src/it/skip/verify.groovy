// -Dracelint.skip=true: nothing analysed, no report, the racy project builds.
def log = new File(basedir, 'build.log').text

assert log.contains('racelint: skipped (racelint.skip=true)')
assert !log.contains('[io-in-transaction]')
assert log.contains('BUILD SUCCESS')
assert !new File(basedir, 'target/racelint.sarif').exists()
return true
