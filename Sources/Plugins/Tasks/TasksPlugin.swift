import Foundation
import HostCore
