// No finding: the build passes and the (empty) SARIF report is written.
def log = new File(basedir, 'build.log').text

assert log.contains('racelint: No findings in 1 file.')
assert !log.contains('[io-in-transaction]')
assert log.contains('BUILD SUCCESS')
def sarif = new groovy.json.JsonSlurper().parse(new File(basedir, 'target/racelint.sarif'))
assert sarif.version == '2.1.0'
assert sarif.runs[0].results == []
return true
