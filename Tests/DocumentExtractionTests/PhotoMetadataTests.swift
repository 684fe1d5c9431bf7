import DocumentExtraction
import ExtractionProtocol
import SearchlightTestSupport
import Testing

@Suite("Photos: EXIF through libvips", .ownThread)
struct PhotoMetadataTests {
    init() throws {
        try PhotoMetadataExtractor.startLibvips()
    }

    @Test("Camera, date taken with its zone, GPS position, description and artist")
    func camera() throws {
        let document = try #require(DocumentFixtures.document("camera.jpg", "image/jpeg"))
        #expect(document.acquisitionMake == "Fujifilm")
        #expect(document.acquisitionModel == "X-T30")
        #expect(document.title == "Sunset over Lake Bled")
        #expect(document.authors == ["Marta Kovač"])
        // 2023-08-15 18:42:07 at +02:00.
        #expect(document.creationDate == 1_692_117_727)
        #expect(abs((document.latitude ?? 0) - 46.3636) < 0.0001)
        #expect(abs((document.longitude ?? 0) - 14.0938) < 0.0001)
        #expect(document.pixelWidth == 400 && document.pixelHeight == 300)
        #expect(document.text.isEmpty)
    }

    @Test("Southern latitudes are negative; a date without a zone is taken as UTC")
    func southernHemisphere() throws {
        let document = try #require(DocumentFixtures.document("rotated.jpg", "image/jpeg"))
        #expect(document.acquisitionModel == "Canon EOS 80D")
        #expect(document.creationDate == 1_454_137_500)
        #expect(abs((document.latitude ?? 0) + 33.8688) < 0.0001)
        #expect(abs((document.longitude ?? 0) - 151.2093) < 0.0001)
    }

    @Test("A photo without EXIF gives its size only; a non-image fails")
    func withoutEXIF() throws {
        let document = try #require(DocumentFixtures.document(
            DocumentFixtures.folder.appending(path: "../../SearchlightFilesTests/Fixtures/photo.webp").path, "image/webp"))
        #expect(document.pixelWidth == 400)
        #expect(document.acquisitionMake == nil && document.creationDate == nil && document.latitude == nil)
        DocumentFixtures.expectFailure(DocumentFixtures.extract("report.rtf", contentType: "image/jpeg"), .decodeFailed)
    }
}
