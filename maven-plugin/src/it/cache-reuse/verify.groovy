// "verify verify": the check runs twice; the second finds nothing changed and reads the cached result.
def log = new File(basedir, 'build.log').text

assert log.count('racelint: No findings in 1 file.') == 2
assert log.count('results from target/racelint-cache') == 1
assert log.contains('BUILD SUCCESS')
// one folder per cache format (v2, v3, ...): exactly one is written
def formats = new File(basedir, 'target/racelint-cache').listFiles().findAll { it.isDirectory() && it.name ==~ /v\d+/ }
assert formats.size() == 1
def entries = formats[0].listFiles().findAll { it.name.endsWith('.json') }
assert entries.size() == 1
assert new File(basedir, 'target/racelint-cache/.gitignore').exists()
return true
