// app's @Transactional checkout() calls client's PaymentClient.charge(), which posts over HTTP.
// Analysed with client's sources in view, app's check finds it; client itself has no finding.
import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
def checkout = new File(basedir, 'app/src/main/java/com/example/app/CheckoutService.java').canonicalPath

assert log.contains('racelint: skipping pom module multi-module')
assert log.contains("[ERROR] ${checkout}:[15,19] [io-in-transaction] checkout() runs inside a transaction")
assert log.contains('via PaymentClient.charge()')
assert log.contains('racelint found 1 finding at or above error in app')
assert log.contains('BUILD FAILURE')

def client = new JsonSlurper().parse(new File(basedir, 'client/target/racelint.sarif'))
assert client.runs[0].results == []

def app = new JsonSlurper().parse(new File(basedir, 'app/target/racelint.sarif'))
def results = app.runs[0].results
assert results.size() == 1
assert results[0].ruleId == 'io-in-transaction'
assert results[0].locations[0].physicalLocation.artifactLocation.uri.endsWith('multi-module/app/src/main/java/com/example/app/CheckoutService.java')
// the path runs into the client module
def steps = results[0].codeFlows[0].threadFlows[0].locations*.location*.physicalLocation*.artifactLocation*.uri
assert steps.any { it.endsWith('multi-module/client/src/main/java/com/example/client/PaymentClient.java') }
return true
