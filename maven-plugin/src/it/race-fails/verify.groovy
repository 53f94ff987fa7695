// The io-in-transaction finding fails the build; the log names the rule and file:[line,column].
def log = new File(basedir, 'build.log').text
def source = new File(basedir, 'src/main/java/com/example/orders/OrderService.java').canonicalPath

assert log.contains("[ERROR] ${source}:[15,19] [io-in-transaction] placeOrder() runs inside a transaction")
assert log.contains('racelint: 1 finding (1 error, 0 warnings, 0 notes) in 1 file.')
def sarif = new File(basedir, 'target/racelint.sarif').canonicalPath
assert log.contains("racelint found 1 finding at or above error in race-fails; see ${sarif}")
assert log.contains('BUILD FAILURE')
assert new File(basedir, 'target/racelint.sarif').isFile()
return true
