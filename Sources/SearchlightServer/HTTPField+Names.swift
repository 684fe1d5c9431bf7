import HTTPTypes

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let wwwAuthenticate = Self("WWW-Authenticate")!
    static let searchlightToken = Self("X-Searchlight-Token")!
}
