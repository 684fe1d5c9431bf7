import DocumentExtraction
import ExtractionProtocol
import Foundation
import SearchlightTestSupport
import Testing

/// Keynote, Pages and Numbers packages made here: the XML package of iWork '09 and the
/// Snappy-framed protobuf parts of iWork 2013+, zipped as the applications save them.
@Suite("iWork: Keynote, Pages, Numbers", .ownThread)
struct IWorkDocumentTests {
    let tree = TemporaryTree("iwork")

    /// Zips the folder `name` of the tree into `name` + `suffix` and returns its path.
    func zipPackage(_ name: String, as suffix: String) -> String {
        let output = tree.url(name + suffix)
        shell("sh", "-c", "cd '\(tree.url(name))' && zip -q -r '\(output)' .")
        return output
    }

    @Test func anOldKeynotePackageGivesItsMetadataSlidesNotesAndCells() throws {
        tree.write("talk/index.apxl", """
            <?xml version="1.0"?>
            <key:presentation xmlns:sfa="http://developer.apple.com/namespaces/sfa" \
            xmlns:sf="http://developer.apple.com/namespaces/sf" xmlns:key="http://developer.apple.com/namespaces/keynote2">
              <key:theme-list><key:theme><key:master-slides><key:master-slide>
                <sf:text-body><sf:p>Double-click to edit</sf:p></sf:text-body>
              </key:master-slide></key:master-slides></key:theme></key:theme-list>
              <key:metadata>
                <key:title><sf:string sfa:string="Beekeeping in winter"/></key:title>
                <key:authors><sf:string sfa:string="Ada Quince"/></key:authors>
                <key:keywords><sf:string sfa:string="bees, winter"/></key:keywords>
              </key:metadata>
              <key:slide-list>
                <key:slide><sf:text-body><sf:p>Clustering bees</sf:p><sf:p>keep the queen warm</sf:p></sf:text-body>
                  <key:notes><sf:text-body><sf:p>Mention the candy board</sf:p></sf:text-body></key:notes></key:slide>
                <key:slide><sf:tabular-model><sf:grid><sf:datasource>
                  <sf:t><sf:ct sfa:s="Hive weight"/></sf:t><sf:n sf:v="42"/>
                </sf:datasource></sf:grid></sf:tabular-model></key:slide>
              </key:slide-list>
            </key:presentation>
            """)
        let path = zipPackage("talk", as: ".key")
        let document = try #require(DocumentFixtures.document(path, "application/zip"))
        #expect(document.title == "Beekeeping in winter")
        #expect(document.authors == ["Ada Quince"])
        #expect(document.keywords == ["bees", "winter"])
        #expect(document.pageCount == 2)
        #expect(document.text.contains("Clustering bees\nkeep the queen warm"))
        #expect(document.text.contains("Mention the candy board"))
        #expect(document.text.contains("Hive weight 42"))
        #expect(!document.text.contains("Double-click"))
    }

    @Test func an2013PackageGivesTheTextOfItsStoragesAndTableStrings() throws {
        // TSWP.StorageArchive (2001), field 3: the text; TST.TableDataList (6005), field 3:
        // entries with their string in field 3.
        let storage = Protobuf.bytesField(3, "Orchard plan for the \u{FFFC}spring")
        let table = Protobuf.bytesField(3, Protobuf.varintField(1, 1) + Protobuf.bytesField(3, "Quince trees"))
        let master = Protobuf.bytesField(3, "Body Level One")
        tree.write(bytes: Protobuf.iwa([(2001, storage), (6005, table)]), to: "plan/Index/Document.iwa")
        tree.write(bytes: Protobuf.iwa([(2001, master)]), to: "plan/Index/MasterSlide-1.iwa")
        tree.write("plan/preview.jpg", "not read here")
        let path = zipPackage("plan", as: ".pages")
        let document = try #require(DocumentFixtures.document(path, "application/zip"))
        #expect(document.text.contains("Orchard plan for the  spring"))
        #expect(document.text.contains("Quince trees"))
        #expect(!document.text.contains("Body Level"))
        let preview = try DocumentFixtures.withDescriptor(path) { try IWorkPreview.image(descriptor: $0) }
        #expect(preview == Array("not read here".utf8))
    }

    @Test func aDamagedPartIsADecodeFailure() throws {
        tree.write(bytes: [0, 9, 0, 0, 1, 2], to: "broken/Index/Document.iwa")
        let path = zipPackage("broken", as: ".numbers")
        DocumentFixtures.expectFailure(DocumentFixtures.extract(path, contentType: "application/zip"), .decodeFailed)
    }
}

/// Protobuf's wire format and iWork's Snappy framing, written by hand for fixtures (Snappy
/// literals only, which every decoder reads).
enum Protobuf {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return bytes
    }

    static func varintField(_ number: UInt64, _ value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }

    static func bytesField(_ number: UInt64, _ value: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(value.count)) + value
    }

    static func bytesField(_ number: UInt64, _ text: String) -> [UInt8] { bytesField(number, Array(text.utf8)) }

    /// An `.iwa` part: one archive whose `ArchiveInfo` announces `messages`, Snappy-framed.
    static func iwa(_ messages: [(type: UInt64, payload: [UInt8])]) -> [UInt8] {
        let infos = messages.flatMap { message in
            bytesField(2, varintField(1, message.type) + varintField(3, UInt64(message.payload.count)))
        }
        let info = varintField(1, 1) + infos
        let stream = varint(UInt64(info.count)) + info + messages.flatMap(\.payload)
        // A raw Snappy block of literals of at most 60 bytes each.
        var block = varint(UInt64(stream.count))
        var offset = 0
        while offset < stream.count {
            let count = min(60, stream.count - offset)
            block.append(UInt8(count - 1) << 2)
            block += stream[offset..<(offset + count)]
            offset += count
        }
        return [0, UInt8(block.count & 0xFF), UInt8(block.count >> 8 & 0xFF), UInt8(block.count >> 16)] + block
    }
}

extension TemporaryTree {
    /// Writes raw bytes to the relative path `name`, creating folders.
    func write(bytes: [UInt8], to name: String) {
        if let slash = name.lastIndex(of: "/") { mkdirs(String(name[..<slash])) }
        _ = FileManager.default.createFile(atPath: url(name), contents: Data(bytes))
    }
}
