import GRDB
@testable import Searchlight

/// Writes an index as an older version of Searchlight left it: the migrations up to
/// `version`, then `sql` (rows in that version's form).
func writeOlderIndex(at path: String, upTo version: String, _ sql: String) throws {
    let queue = try DatabaseQueue(path: path, configuration: {
        var configuration = Configuration()
        configuration.prepareDatabase { SearchableIndex.registerFunctions(in: $0) }
        return configuration
    }())
    try SearchableIndex.migrator.migrate(queue, upTo: version)
    try queue.write { try $0.execute(sql: sql) }
    try queue.close()
}
