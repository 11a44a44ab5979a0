import Datasync
import Foundation

/// The reference's `assignChildren` example: a dictionary kept equal to a node's children.
enum EmployeeDirectoryWalkthrough: Walkthrough {
  static let name = "employee-directory"
  static let summary = "The reference's assignChildren example: a dictionary that follows a node"

  final class EmployeeDirectory: @unchecked Sendable {
    struct Employee: Decodable {
      let name: String
      let yearOfBirth: Int
    }

    /// The directory's updates run on this queue; `employees` is read on it too.
    let queue = DispatchQueue(label: "employee-directory")
    let datasyncManager: DatasyncManager
    var employees: [String: Employee] = [:]

    init(application: WebcomApplication) {
      datasyncManager = application.datasyncService.createManager()
    }

    func assignEmployees() {
      let employeesNode = datasyncManager / "employees"
      employeesNode?.assignChildren(to: \.employees, on: self, queue: queue)
    }

    var names: [String] {
      queue.sync { employees.values.map(\.name).sorted() }
    }
  }

  struct NewEmployee: Encodable {
    let name: String
    let yearOfBirth: Int
  }

  static func run(output: WalkthroughOutput) async throws {
    let application = WebcomApplication(
      configuration: WebcomConfiguration(identifier: "employee-directory"))
    let employees = try application.datasyncService.createManager().nodeThrows(for: "employees")
    try await employees.set([
      "ada": NewEmployee(name: "Ada", yearOfBirth: 1815),
      "alan": NewEmployee(name: "Alan", yearOfBirth: 1912),
    ])

    let directory = EmployeeDirectory(application: application)
    directory.assignEmployees()
    try await waitUntil { directory.names.count == 2 }
    output("directory: \(directory.names.joined(separator: ", "))")

    try await employees.relativeNodeThrows(for: "grace").set(
      NewEmployee(name: "Grace", yearOfBirth: 1906))
    try await waitUntil { directory.names.count == 3 }
    output("after a hire: \(directory.names.joined(separator: ", "))")

    try await employees.relativeNodeThrows(for: "alan").clear()
    try await waitUntil { directory.names.count == 2 }
    output("after a departure: \(directory.names.joined(separator: ", "))")
  }
}
