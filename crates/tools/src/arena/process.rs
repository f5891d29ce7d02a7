//! A TEI engine running as a child process: line I/O with deadlines.
//!
//! A reader thread turns the engine's stdout into a channel of lines, so every wait can have a
//! deadline and a hung or crashed engine is noticed instead of blocking the match. stderr is
//! passed through, as racetrack does. Every wait also ends when the match is interrupted
//! ([`Interrupt`]); the engine runs in a process group of its own, so that a Ctrl-C meant for
//! the match does not kill it mid-game.

use super::interrupt::Interrupt;
use cairn_tak::board::Komi;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How an engine is started and configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name.
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// Parses `cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]...`, space separated.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            options: Vec::new(),
        };
        for part in s.split_whitespace() {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("engine spec `{part}` is not key=value"))?;
            match key {
                "cmd" => spec.cmd = value.to_string(),
                "name" => spec.name = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        spec.options.push((option.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "unknown engine spec key `{key}` (cmd, name, arg, option.X)"
                        ))
                    }
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err(format!("engine spec `{s}` needs cmd=PATH"));
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.cmd)
                .file_name()
                .map_or_else(|| spec.cmd.clone(), |n| n.to_string_lossy().into_owned());
        }
        Ok(spec)
    }
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessError {
    /// It could not be started.
    Spawn(String),
    /// It closed its output or input (crashed or quit).
    Closed,
    /// It did not answer in time.
    Timeout,
    /// The match was interrupted while waiting for it.
    Interrupted,
}

impl std::fmt::Display for ProcessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProcessError::Spawn(e) => write!(f, "could not start: {e}"),
            ProcessError::Closed => f.write_str("closed its pipes (crashed?)"),
            ProcessError::Timeout => f.write_str("did not answer in time"),
            ProcessError::Interrupted => f.write_str("was stopped: the match was interrupted"),
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    /// Its spec.
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    interrupt: Interrupt,
}

/// How often a wait for an engine looks whether the match was interrupted.
const INTERRUPT_POLL: Duration = Duration::from_millis(20);

impl EngineProcess {
    /// Starts the engine; its waits end when `interrupt` is requested.
    pub fn spawn(spec: &EngineSpec, interrupt: &Interrupt) -> Result<Self, ProcessError> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| ProcessError::Spawn(format!("{}: {e}", spec.cmd)))?;
        let stdin = child.stdin.take().ok_or(ProcessError::Closed)?;
        let stdout = child.stdout.take().ok_or(ProcessError::Closed)?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            interrupt: interrupt.clone(),
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        log::debug!("{} < {line}", self.spec.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| ProcessError::Closed)
    }

    /// The next line, waiting until `deadline` or until the match is interrupted.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, ProcessError> {
        loop {
            if self.interrupt.requested() {
                return Err(ProcessError::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(INTERRUPT_POLL)) {
                Ok(line) => {
                    log::debug!("{} > {line}", self.spec.name);
                    return Ok(line);
                }
                Err(RecvTimeoutError::Timeout) if left > INTERRUPT_POLL => {}
                Err(RecvTimeoutError::Timeout) => return Err(ProcessError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(ProcessError::Closed),
            }
        }
    }

    /// Reads lines until one starts with `word`, returning it; other lines are skipped.
    pub fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<String, ProcessError> {
        loop {
            let line = self.recv(deadline)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    /// The TEI handshake: `tei` … `teiok`, the options, then `isready` … `readyok`.
    pub fn handshake(&mut self, komi: Komi) -> Result<(), ProcessError> {
        let deadline = Instant::now() + Duration::from_secs(10);
        self.send("tei")?;
        self.wait_for("teiok", deadline)?;
        let options = self.spec.options.clone();
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        if komi != Komi::ZERO {
            let halves = komi.halves();
            self.send(&format!("setoption name HalfKomi value {halves}"))?;
        }
        self.ready()
    }

    /// `isready` … `readyok`.
    pub fn ready(&mut self) -> Result<(), ProcessError> {
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + Duration::from_secs(10))
            .map(|_| ())
    }

    /// How the engine ended, once its pipes closed: its exit code or the signal that killed it.
    /// Waits up to half a second for the process to be gone.
    pub fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_exit(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => return "closed its pipes but is still running".to_string(),
                Err(e) => return format!("closed its pipes ({e})"),
            }
        }
    }

    /// Asks the engine to quit and makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An exit status in words: `exited with code 3`, `killed by signal 9 (SIGKILL)`.
fn describe_exit(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                1 => " (SIGHUP)",
                2 => " (SIGINT)",
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                13 => " (SIGPIPE)",
                15 => " (SIGTERM)",
                _ => "",
            };
            return format!("killed by signal {signal}{name}");
        }
    }
    format!("ended ({status})")
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
