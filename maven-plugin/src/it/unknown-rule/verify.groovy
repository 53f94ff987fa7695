// An unknown rule id is a configuration error that names the valid ids; nothing is analysed.
def log = new File(basedir, 'build.log').text

assert log.contains("unknown rule id 'no-such-rule' in rules (racelint.rules); valid ids: ")
assert log =~ /valid ids: [a-z-]+(, [a-z-]+)*/
assert log.contains('io-in-transaction')
assert !new File(basedir, 'target/racelint.sarif').exists()
return true
