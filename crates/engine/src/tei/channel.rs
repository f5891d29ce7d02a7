//! A TEI session over channels instead of stdio: [`ChannelInput`] turns lines received on a
//! channel into the session's input, and [`ChannelOutput`] sends each line the session writes.
//! `cairn ws` runs one session per connection this way, and the fuzzer drives sessions with it.

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{Receiver, Sender};

/// The session's input: lines arriving over a channel, each as text or raw bytes (a newline is
/// added to each). The end of the channel is the end of input (the TEI loop then stops any
/// search and returns).
pub struct ChannelInput<T = String> {
    lines: Receiver<T>,
    /// The current line, newline included, and how much of it was consumed.
    current: Vec<u8>,
    at: usize,
}

impl<T: Into<Vec<u8>>> ChannelInput<T> {
    /// The input that reads the lines sent to `lines`.
    pub fn new(lines: Receiver<T>) -> Self {
        ChannelInput {
            lines,
            current: Vec::new(),
            at: 0,
        }
    }
}

impl<T: Into<Vec<u8>>> Read for ChannelInput<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<T: Into<Vec<u8>>> BufRead for ChannelInput<T> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.current.len() {
            match self.lines.recv() {
                Ok(line) => {
                    self.current = line.into();
                    self.current.push(b'\n');
                    self.at = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.current[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.current.len());
    }
}

/// The session's output: the [`Responder`](super::Responder) writes whole lines; each is sent
/// as one string, without its newline. Lines written after the receiver is gone are dropped.
pub struct ChannelOutput {
    lines: Sender<String>,
    /// Bytes of a line not yet ended by `\n`.
    partial: Vec<u8>,
}

impl ChannelOutput {
    /// The output that sends each line to `lines`.
    pub fn new(lines: Sender<String>) -> Self {
        ChannelOutput {
            lines,
            partial: Vec::new(),
        }
    }
}

impl Write for ChannelOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&self.partial[..end]).into_owned();
            self.partial.drain(..=end);
            // After the connection closed nobody reads: the line is dropped on purpose.
            let _ = self.lines.send(line);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn channel_input_gives_lines_then_end_of_input() {
        let (tx, rx) = channel();
        tx.send("tei".to_string()).unwrap();
        tx.send(String::new()).unwrap();
        tx.send("go depth 3".to_string()).unwrap();
        drop(tx);
        let mut input = ChannelInput::new(rx);
        let mut lines = Vec::new();
        let mut line = String::new();
        while input.read_line(&mut line).unwrap() > 0 {
            lines.push(std::mem::take(&mut line));
        }
        assert_eq!(lines, ["tei\n", "\n", "go depth 3\n"]);
    }

    #[test]
    fn output_splits_writes_into_lines() {
        let (tx, rx) = channel();
        let mut out = ChannelOutput::new(tx);
        out.write_all(b"info string a").unwrap();
        out.write_all(b"b\nreadyok\nbest").unwrap();
        assert_eq!(
            rx.try_iter().collect::<Vec<_>>(),
            ["info string ab", "readyok"]
        );
        out.write_all(b"move a1\n").unwrap();
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), ["bestmove a1"]);
        // A closed connection drops lines without failing the session.
        drop(rx);
        assert_eq!(out.write(b"readyok\n").unwrap(), 8);
    }

    #[test]
    fn channel_input_takes_raw_bytes() {
        let (tx, rx) = channel();
        tx.send(vec![b'g', 0xff, b'o']).unwrap();
        drop(tx);
        let mut input = ChannelInput::new(rx);
        let mut line = Vec::new();
        assert_eq!(input.read_until(b'\n', &mut line).unwrap(), 4);
        assert_eq!(line, [b'g', 0xff, b'o', b'\n']);
        assert_eq!(input.read_until(b'\n', &mut line).unwrap(), 0);
    }
}
