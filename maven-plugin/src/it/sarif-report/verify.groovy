// racelint:report writes target/racelint.sarif (SARIF 2.1.0 with the finding), .json and .txt,
// and never fails the build. (The plugin's unit tests validate its SARIF against the schema.)
import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.contains('[WARNING] ')
assert log.contains('[io-in-transaction]')
assert log.contains('BUILD SUCCESS')

def sarifFile = new File(basedir, 'target/racelint.sarif')
assert sarifFile.isFile()
def sarif = new JsonSlurper().parse(sarifFile)
assert sarif.version == '2.1.0'
assert sarif.runs.size() == 1
def run = sarif.runs[0]
assert run.tool.driver.name == 'racelint'
assert run.automationDetails.id.startsWith('racelint/it')
assert run.results.size() >= 1
def result = run.results.find { it.ruleId == 'io-in-transaction' }
assert result != null
def location = result.locations[0].physicalLocation
assert location.artifactLocation.uri.endsWith('sarif-report/src/main/java/com/example/orders/OrderService.java')
assert !location.artifactLocation.uri.startsWith('/')
assert location.region.startLine == 15

def json = new JsonSlurper().parse(new File(basedir, 'target/racelint.json'))
assert json.findings*.ruleId == ['io-in-transaction']
assert new File(basedir, 'target/racelint.txt').text.contains('[io-in-transaction]')
return true
