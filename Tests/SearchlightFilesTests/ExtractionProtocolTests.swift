import ExtractionProtocol
import Testing

@Suite("Extraction wire protocol")
struct ExtractionProtocolTests {
    /// Splits a frame into its announced length and its payload.
    func payload(of frame: [UInt8]) throws -> [UInt8] {
        let length = try ExtractionFrame.payloadLength(header: frame.prefix(ExtractionFrame.headerSize))
        #expect(length == frame.count - ExtractionFrame.headerSize)
        return Array(frame.dropFirst(ExtractionFrame.headerSize))
    }

    @Test("A request with a path that is not UTF-8 survives a round trip")
    func requestRoundTrip() throws {
        let request = ExtractionRequest(jobID: 0xdead_beef_0102, kind: .thumbnail, path: [0x2f, 0xff, 0xfe, 0x0a, 0x80], limit: 256)
        let decoded = try ExtractionRequest(payload: payload(of: request.encodedFrame()))
        #expect(decoded == request)
        #expect(decoded.kind == .thumbnail)
    }

    @Test("Responses survive a round trip", arguments: [
        ExtractionResponse(jobID: 7, kindRawValue: 1, originalWidth: 6000, originalHeight: 4000,
                           outcome: .thumbnail(format: "webp", width: 256, height: 171, bytes: [1, 2, 3, 0, 255])),
        ExtractionResponse(jobID: 8, kindRawValue: 1, outcome: .failure(.tooLarge, message: "image of 50000x50000 pixels exceeds…")),
        ExtractionResponse(jobID: 9, kindRawValue: 2, outcome: .failure(.unsupported, message: "")),
    ])
    func responseRoundTrip(response: ExtractionResponse) throws {
        #expect(try ExtractionResponse(payload: payload(of: response.encodedFrame())) == response)
    }

    @Test("Truncated, oversized and unknown messages are rejected")
    func malformed() throws {
        let frame = ExtractionRequest(jobID: 1, kind: .thumbnail, path: Array("/a.jpg".utf8), limit: 256).encodedFrame()
        let body = Array(frame.dropFirst(ExtractionFrame.headerSize))
        #expect(throws: ExtractionProtocolError.self) { try ExtractionRequest(payload: Array(body.dropLast())) }
        #expect(throws: ExtractionProtocolError.self) { try ExtractionRequest(payload: body + [0]) }
        #expect(throws: ExtractionProtocolError.self) { try ExtractionRequest(payload: [9] + body.dropFirst()) }
        #expect(throws: ExtractionProtocolError.self) { try ExtractionFrame.payloadLength(header: [0xff, 0xff, 0xff, 0xff]) }
        let response = ExtractionResponse(jobID: 1, kindRawValue: 1, outcome: .failure(.decodeFailed, message: "x")).encodedFrame()
        var broken = Array(response.dropFirst(ExtractionFrame.headerSize))
        broken[10] = 200 // the status byte
        #expect(throws: ExtractionProtocolError.self) { try ExtractionResponse(payload: broken) }
    }
}
