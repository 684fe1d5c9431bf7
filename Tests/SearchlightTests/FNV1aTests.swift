import Testing
@testable import Searchlight

@Suite("FNV-1a")
struct FNV1aTests {
    /// The published 64-bit test vectors, and the digests of content kinds that indexes
    /// already store (worked out with the hash written out by hand): the shared hash must not
    /// change what earlier versions wrote.
    @Test func givesThePublishedValuesAndTheStoredDigests() {
        #expect(FNV1a.hash([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.hash("a".utf8) == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a.hash("foobar".utf8) == 0x8594_4171_f739_67e8)
        #expect(ContentKind.digest(type: "text/plain", description: "ASCII text") == 3_482_250_281_090_986_427)
        #expect(ContentKind.digest(type: nil, description: "") == -2_975_348_301_119_301_180)
        #expect(ContentKind.digest(type: "", description: nil) == 6_032_976_847_190_259_804)
    }
}
