// "verify verify": the check runs twice; the second finds nothing changed and reads the cached result.
def log = new File(basedir, 'build.log').text

assert log.count('racelint: No findings in 1 file.') == 2
assert log.count('results from target/racelint-cache') == 1
assert log.contains('BUILD SUCCESS')
def entries = new File(basedir, 'target/racelint-cache/v2').listFiles().findAll { it.name.endsWith('.json') }
assert entries.size() == 1
assert new File(basedir, 'target/racelint-cache/.gitignore').exists()
return true
