import ExtractionProtocol
import SystemCalls

extension ExtractionRequest {
    /// The response that says this request failed with `code`.
    func failure(_ code: ExtractionFailureCode, _ message: String) -> ExtractionResponse {
        ExtractionResponse(jobID: jobID, kindRawValue: kindRawValue, outcome: .failure(code, message: message))
    }

    /// The response that says the requested file could not be opened (`error`).
    func failure(opening error: WorkerSystemError) -> ExtractionResponse {
        failure(.unreadable, error.description)
    }

    /// Opens the requested file (``openRegularFile(_:)``); the caller closes it.
    func openFile() throws(WorkerSystemError) -> Int32 {
        try openRegularFile(path)
    }
}
