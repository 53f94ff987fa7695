// One scan of the whole reactor, run once at the root: app's checkout() calling client's PaymentClient
// is in the one SARIF run at the root, with its path into client, at the level the root racelint.yml sets.
import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.readLines().any { it.contains('racelint: config ') && it.contains('aggregate/racelint.yml') }
assert log.contains('BUILD SUCCESS')
assert !new File(basedir, 'app/target/racelint.sarif').exists()
assert !new File(basedir, 'client/target/racelint.sarif').exists()

def sarif = new JsonSlurper().parse(new File(basedir, 'target/racelint.sarif'))
assert sarif.runs.size() == 1
def results = sarif.runs[0].results
def where = results.collect { it.locations[0].physicalLocation.artifactLocation.uri.tokenize('/').last() + ' ' + it.level }.sort()
assert where == ['CheckoutService.java warning'] : where
def steps = results[0].codeFlows[0].threadFlows[0].locations*.location*.physicalLocation*.artifactLocation*.uri
assert steps.any { it.endsWith('aggregate/client/src/main/java/com/example/client/PaymentClient.java') }
assert log.readLines().count { it.contains('racelint-maven-plugin:') && it.contains(':aggregate (default-cli)') } == 1 : 'runs once, at the root'
assert new File(basedir, 'target/racelint.txt').text.contains('[io-in-transaction]')
return true
