extension TOMLReader {
    /// The top-level keys besides `[[roots]]` and the tables: `index` and `priority`.
    static let topLevelKeys: [Field<Configuration>] = [
        Field("index") { value, place, configuration throws(ConfigurationError) in
            let location = try place.string(value)
            let expanded = place.expandingHome(location)
            guard expanded.hasPrefix("/") || IndexLauncher.isRemote(expanded) else {
                throw place.mistyped(value, expected: "an absolute path, ~/… or a postgres:// URL")
            }
            configuration.index = place.setting(Optional(expanded))
        },
        Field("priority") { value, place, configuration throws(ConfigurationError) in
            let names = Configuration.Priority.allCases.map { ConfigurationError.quoted($0.rawValue) }.joined(separator: " or ")
            guard let priority = value.string.flatMap(Configuration.Priority.init(rawValue:)) else {
                throw place.mistyped(value, expected: names)
            }
            configuration.priority = place.setting(priority)
        },
    ]

    /// The keys of each `[[roots]]`.
    static let rootKeys: [Field<Configuration.Root>] = [
        Field("path") { value, place, root throws(ConfigurationError) in
            let path = place.expandingHome(try place.string(value))
            guard path.hasPrefix("/") else { throw place.mistyped(value, expected: "an absolute path or start with ~/") }
            root.path = path
        },
        Field("domain") { value, place, root throws(ConfigurationError) in
            let domain = try place.string(value)
            guard !domain.isEmpty else { throw place.mistyped(value, expected: "a name") }
            root.domain = domain
        },
        Field("exclusions") { value, place, root throws(ConfigurationError) in root.exclusions = try place.strings(value) },
    ]

    /// The tables (`[exclusions]`, `[extraction]`, `[meaning]`, `[watch]`, `[removable]`,
    /// `[server]`) and their keys.
    static let tables: [(section: Configuration.Section, fields: [Field<Configuration>])] = [
        (.exclusions, [
            Field("patterns") { value, place, configuration throws(ConfigurationError) in
                configuration.exclusions = place.setting(try place.strings(value))
            },
            Field("hidden") { value, place, configuration throws(ConfigurationError) in
                configuration.includeHidden = try place.boolSetting(value)
            },
            Field("defaults") { value, place, configuration throws(ConfigurationError) in
                configuration.defaultExclusions = try place.boolSetting(value)
            },
        ]),
        (.extraction, [
            Field("thumbnails") { value, place, configuration throws(ConfigurationError) in
                configuration.thumbnails = try place.boolSetting(value)
            },
            Field("content") { value, place, configuration throws(ConfigurationError) in
                configuration.content = try place.boolSetting(value)
            },
            Field("text-limit") { value, place, configuration throws(ConfigurationError) in
                configuration.textLimit = try place.intSetting(value, in: 0...Int(Int32.max))
            },
            Field("decoder-deadline") { value, place, configuration throws(ConfigurationError) in
                configuration.decoderDeadline = try place.intSetting(value, in: 1...3600)
            },
            Field("ocr") { value, place, configuration throws(ConfigurationError) in
                configuration.ocr = try place.boolSetting(value)
            },
            Field("ocr-languages") { value, place, configuration throws(ConfigurationError) in
                let languages = try place.strings(value)
                if languages.isEmpty || !languages.allSatisfy(Configuration.isLanguageName) {
                    let bad = languages.first { !Configuration.isLanguageName($0) }
                    throw place.error(.invalidValue, "\(place.dotted) must list Tesseract languages such as \"eng\", found "
                                      + (bad.map(ConfigurationError.quoted) ?? "an empty list"))
                }
                configuration.ocrLanguages = place.setting(languages)
            },
            Field("ocr-page-limit") { value, place, configuration throws(ConfigurationError) in
                configuration.ocrPageLimit = try place.intSetting(value, in: 1...10_000)
            },
            Field("ocr-page-deadline") { value, place, configuration throws(ConfigurationError) in
                configuration.ocrPageDeadline = try place.intSetting(value, in: 1...3600)
            },
        ]),
        (.meaning, [
            Field("enabled") { value, place, configuration throws(ConfigurationError) in
                configuration.meaning = try place.boolSetting(value)
            },
            Field("model") { value, place, configuration throws(ConfigurationError) in
                configuration.meaningModel = place.setting(try place.string(value))
            },
            Field("chunks-per-document") { value, place, configuration throws(ConfigurationError) in
                configuration.meaningChunks = try place.intSetting(value, in: 1...1000)
            },
        ]),
        (.watch, [
            Field("self-check-interval") { value, place, configuration throws(ConfigurationError) in
                configuration.selfCheckInterval = try place.intSetting(value, in: 0...Int(Int32.max))
            },
            Field("rescan-interval") { value, place, configuration throws(ConfigurationError) in
                configuration.rescanInterval = try place.intSetting(value, in: 1...Int(Int32.max))
            },
            Field("backoff") { value, place, configuration throws(ConfigurationError) in
                configuration.backoff = try place.boolSetting(value)
            },
        ]),
        (.removable, [
            Field("index") { value, place, configuration throws(ConfigurationError) in
                configuration.removable = try place.boolSetting(value)
            },
            Field("places") { value, place, configuration throws(ConfigurationError) in
                let places = try place.strings(value).map(place.expandingHome)
                if let relative = places.first(where: { !$0.hasPrefix("/") }) {
                    throw place.error(.invalidValue, "\(place.dotted) must list absolute folders or ~/…, found "
                                      + ConfigurationError.quoted(relative))
                }
                configuration.removablePlaces = place.setting(places)
            },
            Field("keep-offline-days") { value, place, configuration throws(ConfigurationError) in
                configuration.keepOfflineDays = try place.intSetting(value, in: 0...36500)
            },
        ]),
        (.server, [
            Field("host") { value, place, configuration throws(ConfigurationError) in
                configuration.server.host = place.setting(try place.string(value))
            },
            Field("port") { value, place, configuration throws(ConfigurationError) in
                configuration.server.port = try place.intSetting(value, in: 1...65535)
            },
            Field("token") { value, place, configuration throws(ConfigurationError) in
                let token = try place.string(value)
                configuration.server.token = place.setting(token.isEmpty ? nil : token)
            },
        ]),
    ]
}
