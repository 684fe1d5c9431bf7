import Foundation

extension SecretContent {
    /// Google credential types and the field that makes each a secret.
    private static let googleCredentials = [
        "service_account": "private_key", "authorized_user": "refresh_token",
        "impersonated_service_account": "source_credentials", "external_account": "credential_source",
    ]
    private static let awsSecretKeys = ["aws_secret_access_key", "aws_session_token"].map { Array($0.utf8) }
    private static let typeField = Array("\"type\"".utf8)

    /// Whether the whole file, `head` (`size` bytes, read whole), is a cloud credential file
    /// renamed: Google's JSON credentials (a service account's key, gcloud's
    /// `application_default_credentials.json`) or an AWS shared credentials file (INI sections
    /// of `name = value` lines, an `aws_secret_access_key` among them, and nothing else).
    /// Their usual names are left out by ``ExclusionRules/secrets``.
    static func isCloudCredentials(_ head: ArraySlice<UInt8>, size: Int) -> Bool {
        guard head.count == size, size < headLength else { return false }
        switch head.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) {
        case 0x7B:  // "{"
            guard firstIndex(of: typeField, in: head) != nil,
                  let object = try? JSONSerialization.jsonObject(with: Data(head)) as? [String: Any],
                  let type = object["type"] as? String, let field = googleCredentials[type] else { return false }
            return object[field] != nil
        case 0x5B, 0x61:  // "[" or "a" (aws_…)
            return awsSecretKeys.contains { firstIndex(of: $0, in: head) != nil } && isINI(head)
        default:
            return false
        }
    }

    /// Whether every line of `bytes` is blank, a comment, a `[section]` or `name = value`.
    private static func isINI(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.split(separator: 0x0A).allSatisfy { raw in
            let line = raw.drop { $0 == 0x20 || $0 == 0x09 }
            guard let first = line.first, first != 0x0D else { return true }
            if first == 0x23 || first == 0x3B { return true }
            if first == 0x5B { return line.contains(0x5D) }
            guard let equals = line.firstIndex(of: 0x3D), equals > line.startIndex else { return false }
            return line[..<equals].allSatisfy { $0 == 0x20 || $0 == 0x5F || $0 == 0x2D || $0 == 0x2E
                || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF) }
        }
    }
}
