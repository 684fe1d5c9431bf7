import ExtractionProtocol
import SystemCalls

extension DocumentSource {
    /// A source for bytes held in memory (an archive's member), in an anonymous file so that
    /// every reader reads it as it reads a file, through a descriptor. Closed by ``close()``.
    /// The corresponding C function is `memfd_create(2)`.
    init(bytes: [UInt8], path: [UInt8], textLimit: Int, contentType: String) throws(ExtractionFailure) {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.makeMemoryFile(named: "searchlight-member")
        } catch {
            throw ExtractionFailure(.internalError, "memfd_create: \(error)")
        }
        do {
            try SystemCall.write(descriptor, bytes)
        } catch {
            SystemCall.close(descriptor)
            throw ExtractionFailure(.internalError, "cannot hold an archive member in memory: \(error)")
        }
        self.init(descriptor: descriptor, path: path, size: bytes.count, textLimit: textLimit, contentType: contentType)
    }
}
