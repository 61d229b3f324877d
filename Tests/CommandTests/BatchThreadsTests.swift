import Foundation
import Testing

@Suite("--batch on several threads: the same answers, in order")
struct BatchThreadsTests {
    /// Requests of every kind a batch meets, good and bad, around the sample spots: more lines
    /// than a thread's group, so that groups and runs are shared out among threads.
    private static let searchRequests: String =
        (0..<700).map { line in
            let lat = 60.16 + Double(line % 37) * 0.001
            let lon = 24.93 + Double(line % 23) * 0.001
            switch line % 7 {
            case 0: return "{\"near\":[\(lat),\(lon)],\"radius\":500,\"limit\":5}"
            case 1: return "{\"query\":\"kiasma\",\"limit\":2}"
            case 2: return "not json \(line)"
            case 3: return "{\"query\":\"cafe\",\"near\":[\(lat),\(lon)],\"limit\":3}"
            case 4: return ""
            case 5: return "{\"bbox\":[24.93,60.16,24.96,60.18],\"categories\":[\"museum\"],\"limit\":2}"
            default: return "{\"near\":[\(lat),\(lon)],\"limit\":-1}"
            }
        }.joined(separator: "\n") + "\n"

    @Test("search and cluster batches give byte-identical output on 1, 2 and 5 threads")
    func sameAnswers() throws {
        let viewports = (0..<300).map { line in
            let zoom = line % 18
            return line % 11 == 0
                ? "{\"bbox\":[0,0,1,1],\"zoom\":99}"
                : "{\"bbox\":[24.9,60.1,25.0,60.2],\"zoom\":\(zoom),\"categories\":[\"cafe\"]}"
        }.joined(separator: "\n")
        try withSampleIndex { _, index in
            for (command, requests) in [("search", Self.searchRequests), ("cluster", viewports)] {
                let answers = try [1, 2, 5].map { threads in
                    try SpotsCLI.run(
                        [command, index, "--batch", "-", "--threads", "\(threads)"], stdin: Data(requests.utf8))
                }
                #expect(answers.allSatisfy { $0.status == 0 }, "\(command)")
                #expect(answers[0].output == answers[1].output && answers[0].output == answers[2].output, "\(command)")
                let lines = answers[0].output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                let asked = requests.split(separator: "\n").count
                #expect(lines.count == asked, "\(command): one answer a non-empty line")
                #expect(lines.filter { $0.hasPrefix("{\"error\"") }.count > 0, "\(command): the bad lines answered")
            }
        }
    }

    @Test("a batch's answer to a line is the answer to that line alone")
    func eachLineAlone() throws {
        try withSampleIndex { _, index in
            let lines = Self.searchRequests.split(separator: "\n").prefix(14).map(String.init)
            let together = try SpotsCLI.run(
                ["search", index, "--batch", "-", "--threads", "2"], stdin: Data(lines.joined(separator: "\n").utf8))
            let alone = try lines.map { line in
                try SpotsCLI.run(["search", index, "--batch", "-", "--threads", "2"], stdin: Data(line.utf8)).output
            }
            #expect(together.output == alone.joined())
        }
    }

    @Test("a client that writes a line to standard input and waits gets its answer before the next line")
    func answersAsLinesCome() throws {
        try withSampleIndex { _, index in
            let process = Process()
            process.executableURL = SpotsCLI.executable
            process.arguments = ["search", index, "--batch", "-"]
            let (input, output) = (Pipe(), Pipe())
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            // A batch that held the answers back would never answer: end it after 30 s, so that
            // the read below meets the end of the output and the test fails instead of hanging.
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) { [process] in
                if process.isRunning { process.terminate() }
            }
            for query in ["kiasma", "kappeli"] {
                input.fileHandleForWriting.write(Data("{\"query\":\"\(query)\",\"limit\":1}\n".utf8))
                var line: [UInt8] = []
                while let byte = output.fileHandleForReading.readData(ofLength: 1).first, byte != 0x0A {
                    line.append(byte)
                }
                #expect(String(decoding: line, as: UTF8.self).lowercased().contains(query), "\(query)")
            }
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }

    @Test("--threads must be a whole number from 1 to 1024")
    func badThreads() throws {
        try withSampleIndex { _, index in
            for threads in ["0", "two", "2000"] {
                let run = try SpotsCLI.run(["search", index, "--batch", "-", "--threads", threads], stdin: Data())
                #expect(run.status == 64 && run.stderr.hasPrefix("spots: --threads: "), "\(threads)")
            }
        }
    }
}
