import Foundation
import Searchlight
import Testing
@testable import SearchlightPostgres

/// How bound values are written where SQL reads them as text: bytes as the hexadecimal digits
/// `decode(…, 'hex')` and `'\x…'` read.
@Suite("SQL statements' values")
struct SQLStatementTests {
    @Test func bytesAreWrittenAsTwoLowercaseDigitsEach() {
        let every = (0...255).map(UInt8.init)
        #expect(Hexadecimal.lowercase(every) == every.map { String(format: "%02x", $0) }.joined())
        #expect(Hexadecimal.lowercase([UInt8]()) == "")
        #expect(SQLStatement.Value.bytes([0x72, 0xE9, 0x00, 0xFF]).description == "'\\x72e900ff'")
    }
}
