import PluginKit

/// The views the study systems share with an AI assistant.
extension ResourceDeclaration {
    /// The exams registered for in every study system, one view: each plugin declares it with its
    /// own read, which lands under its `part`.
    public static func registeredExams(_ read: Read, topics: [String]) -> ResourceDeclaration {
        ResourceDeclaration(
            uri: "assistant://exams/upcoming", name: "Registered exams", description: "Exam dates registered for in IS/STAG and KOS",
            reads: [read], topics: topics, prompts: ["daily_briefing", "plan_week"])
    }
}
