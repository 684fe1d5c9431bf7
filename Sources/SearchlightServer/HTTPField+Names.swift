import HTTPTypes

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let searchlightToken = Self("X-Searchlight-Token")!
}
