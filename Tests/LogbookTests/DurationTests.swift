import Testing
@testable import Logbook
