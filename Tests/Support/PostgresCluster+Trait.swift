import Testing

/// The suite trait of every PostgreSQL test: skipped, with the reason printed, only when the
/// server binaries are not installed (never in CI, where that is a failure).
extension Trait where Self == ConditionTrait {
    public static var needsPostgres: Self {
        .enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason))
    }
}
