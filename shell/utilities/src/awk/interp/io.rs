//! awk's input and output: records from operands and `getline`, and
//! `print` to files, pipes and commands.

use super::*;

impl Awk<'_> {
    /// The next record of the main input (operands, or stdin).
    pub(super) fn next_main_record(&mut self) -> R<Option<String>> {
        loop {
            if self.main.is_none() {
                if self.main_done {
                    return Ok(None);
                }
                if std::mem::take(&mut self.in_file) {
                    self.run_file_blocks(false)?;
                }
                if !self.open_next_operand()? {
                    self.main_done = true;
                    return Ok(None);
                }
                self.in_file = true;
                self.run_file_blocks(true)?;
                if self.main.is_none() {
                    // `nextfile` in BEGINFILE: the file is skipped.
                    continue;
                }
            }
            let rs = self.global_string("RS");
            let limit = self.buffer_limit();
            let source = self.main.as_mut().expect("opened");
            match read_record(source, &rs, limit).map_err(|e| self.io_jump(e))? {
                Some(record) => return Ok(Some(record)),
                None => self.main = None,
            }
        }
    }

    /// gawk's BEGINFILE (`begin`) or ENDFILE blocks; `nextfile` in
    /// BEGINFILE skips the file.
    fn run_file_blocks(&mut self, begin: bool) -> R<()> {
        let program = self.program;
        let blocks = if begin {
            &program.begin_file
        } else {
            &program.end_file
        };
        for block in blocks {
            match self.block(block) {
                Ok(()) | Err(Jump::Next) => {}
                Err(Jump::NextFile) if begin => {
                    self.main = None;
                    return Ok(());
                }
                Err(Jump::NextFile) => {}
                Err(other) => return Err(other),
            }
        }
        Ok(())
    }

    /// The most a record read from a stream may buffer.
    fn buffer_limit(&self) -> usize {
        self.shell.context().limits.max_buffered_input
    }

    pub(super) fn io_jump(&mut self, error: std::io::Error) -> Jump {
        match self.shell.io_status("awk", error) {
            Err(flow) => Jump::Stop(flow),
            Ok(_) => Jump::Error("read error".to_string()),
        }
    }

    /// Opens the next file operand (processing `var=value` operands);
    /// stdin when there are none at all.
    pub(super) fn open_next_operand(&mut self) -> R<bool> {
        let argc = self.get_var("ARGC").num() as usize;
        let argv = self.array_id_for_global("ARGV");
        while self.operand_index + 1 < argc.max(1) {
            self.operand_index += 1;
            let Some(operand) = self.arrays[argv]
                .get(&self.operand_index.to_string())
                .map(|v| v.string("%.6g"))
            else {
                continue;
            };
            if operand.is_empty() {
                continue;
            }
            if let Some((name, value)) = operand.split_once('=')
                && goccia_interp::is_name(name)
            {
                self.set_var(name, Value::StrNum(process_escapes(value)));
                continue;
            }
            self.set_var("FILENAME", Value::Str(operand.clone()));
            self.set_var("FNR", Value::Num(0.0));
            if operand == "-" || operand == "/dev/stdin" {
                self.main = Some(self.stdin_source());
                return Ok(true);
            }
            match goccia_interp::input::open_quiet(self.shell, &operand) {
                Ok(mut source) => {
                    let data = source.read_all().map_err(|e| self.io_jump(e))?;
                    self.main = Some(RecordSource::Data { data, pos: 0 });
                    return Ok(true);
                }
                Err(reason) => {
                    self.shell.fail_command(
                        "awk",
                        &format!("cannot open \"{operand}\" ({reason})"),
                        2,
                    );
                    self.exit_code = 2;
                }
            }
        }
        let any_file = (1..argc).any(|i| {
            self.arrays[argv].get(&i.to_string()).is_some_and(|v| {
                let text = v.string("%.6g");
                !text.is_empty()
                    && !text
                        .split_once('=')
                        .is_some_and(|(n, _)| goccia_interp::is_name(n))
            })
        });
        if !any_file && !self.stdin_used {
            self.stdin_used = true;
            // gawk names standard input `-` once it reads it.
            self.set_var("FILENAME", Value::Str("-".to_string()));
            self.main = Some(self.stdin_source());
            return Ok(true);
        }
        Ok(false)
    }

    pub(super) fn stdin_source(&self) -> RecordSource {
        match self.shell.fds().input(0) {
            Some(reader) => RecordSource::Stream(reader),
            None => RecordSource::Data {
                data: Vec::new(),
                pos: 0,
            },
        }
    }

    pub(super) fn emit(&mut self, bytes: &[u8]) -> R<()> {
        self.output.extend_from_slice(bytes);
        if self.output.len() > 64 << 10 {
            self.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> R<()> {
        if self.output.is_empty() {
            return Ok(());
        }
        let data = std::mem::take(&mut self.output);
        if let Err(error) = self.shell.write_stdout(&data) {
            return Err(match self.shell.io_status("awk", error) {
                Err(flow) => Jump::Stop(flow),
                Ok(_) => Jump::Exit,
            });
        }
        Ok(())
    }

    /// Closes every redirection (at the end of the program).
    pub fn close_all(&mut self) -> R<()> {
        let names: Vec<String> = self.files.keys().cloned().collect();
        for name in names {
            self.close_output(&name);
        }
        let pipes: Vec<String> = self.pipes.keys().cloned().collect();
        for command in pipes {
            self.close_pipe(&command)?;
        }
        Ok(())
    }

    pub(super) fn close_output(&mut self, name: &str) -> i32 {
        let Some((_, data)) = self.files.remove(name) else {
            return -1;
        };
        if name == "/dev/stderr" || name == "-" {
            return 0;
        }
        let Ok(path) = self.shell.cwd().resolve(name) else {
            return -1;
        };
        let result = self.shell.context().vfs.lock().append_file(&path, data);
        if result.is_ok() { 0 } else { -1 }
    }

    pub(super) fn close_pipe(&mut self, command: &str) -> R<i32> {
        let Some(input) = self.pipes.shift_remove(command) else {
            return Ok(-1);
        };
        self.flush()?;
        self.run_command(command, Some(input), None)
    }

    /// Runs a shell command; with `capture`, collects its stdout.
    pub(super) fn run_command(
        &mut self,
        command: &str,
        input: Option<Vec<u8>>,
        capture: Option<&mut Vec<u8>>,
    ) -> R<i32> {
        let mut child = self.shell.child_process();
        if let Some(input) = input {
            child.fds_mut().set(
                0,
                goccia_interp::io::Fd::reader(goccia_interp::io::BytesReader::new(input)),
            );
        }
        let buffer = goccia_interp::io::CaptureWriter::new(64 << 20);
        if capture.is_some() {
            child
                .fds_mut()
                .set(1, goccia_interp::io::Fd::writer(buffer.clone()));
        }
        let status = match child.run_script(command) {
            Ok(status) => status,
            Err(stopped) => return Err(Jump::Stop(Flow::Stop(stopped))),
        };
        if let Some(capture) = capture {
            capture.extend(buffer.take());
        }
        Ok(status)
    }

    // ----- statements -----

    pub(super) fn write_to(&mut self, dest: &Option<Dest>, bytes: Vec<u8>) -> R<()> {
        match dest {
            None => self.emit(&bytes),
            Some(Dest::File(expr)) | Some(Dest::Append(expr)) => {
                let name = self.eval(expr)?.string(&self.convfmt());
                match name.as_str() {
                    "/dev/stdout" | "-" => return self.emit(&bytes),
                    "/dev/stderr" => {
                        self.flush()?;
                        self.shell.write_stderr(&bytes);
                        return Ok(());
                    }
                    _ => {}
                }
                if !self.files.contains_key(&name) {
                    let append = matches!(dest, Some(Dest::Append(_)));
                    if let Ok(path) = self.shell.cwd().resolve(&name) {
                        let result = {
                            let mut vfs = self.shell.context().vfs.lock();
                            if append {
                                vfs.append_file(&path, Vec::new())
                            } else {
                                vfs.write_file(&path, Vec::new())
                            }
                        };
                        if let Err(error) = result {
                            let reason = self.shell.fs_reason("awk", &error);
                            return Err(if error.denied.is_some() {
                                Jump::Denied(format!("{name}: {reason}"))
                            } else {
                                Jump::Error(format!("can't redirect to `{name}' ({reason})"))
                            });
                        }
                    }
                    self.files.insert(name.clone(), (append, Vec::new()));
                }
                let entry = self.files.get_mut(&name).expect("inserted");
                entry.1.extend(bytes);
                if entry.1.len() > 64 << 10 {
                    let data = std::mem::take(&mut entry.1);
                    if let Ok(path) = self.shell.cwd().resolve(&name) {
                        let _ = self.shell.context().vfs.lock().append_file(&path, data);
                    }
                }
                Ok(())
            }
            Some(Dest::Pipe(expr)) => {
                let command = self.eval(expr)?.string(&self.convfmt());
                self.pipes.entry(command).or_default().extend(bytes);
                Ok(())
            }
        }
    }

    // ----- expressions -----

    pub(super) fn getline(&mut self, source: &GetlineSource, target: Option<&Expr>) -> R<Value> {
        let rs = self.global_string("RS");
        let record = match source {
            GetlineSource::Main => {
                let record = self.next_main_record()?;
                if record.is_some() {
                    let nr = self.get_var("NR").num() + 1.0;
                    self.set_var("NR", Value::Num(nr));
                    let fnr = self.get_var("FNR").num() + 1.0;
                    self.set_var("FNR", Value::Num(fnr));
                }
                record
            }
            GetlineSource::File(file) => {
                let name = self.eval(file)?.string(&self.convfmt());
                if !self.readers.contains_key(&name) {
                    let source = if name == "-" || name == "/dev/stdin" {
                        self.stdin_source()
                    } else {
                        match goccia_interp::input::open_quiet(self.shell, &name) {
                            Ok(mut source) => RecordSource::Data {
                                data: source.read_all().unwrap_or_default(),
                                pos: 0,
                            },
                            Err(_) => return Ok(Value::Num(-1.0)),
                        }
                    };
                    self.readers.insert(name.clone(), source);
                }
                let limit = self.buffer_limit();
                let reader = self.readers.get_mut(&name).expect("inserted");
                read_record(reader, &rs, limit).map_err(|e| Jump::Error(e.to_string()))?
            }
            GetlineSource::Command(command) => {
                let command = self.eval(command)?.string(&self.convfmt());
                if !self.readers.contains_key(&command) {
                    self.flush()?;
                    let mut output = Vec::new();
                    self.run_command(&command, None, Some(&mut output))?;
                    self.readers.insert(
                        command.clone(),
                        RecordSource::Data {
                            data: output,
                            pos: 0,
                        },
                    );
                }
                let limit = self.buffer_limit();
                let reader = self.readers.get_mut(&command).expect("inserted");
                let record =
                    read_record(reader, &rs, limit).map_err(|e| Jump::Error(e.to_string()))?;
                if record.is_some() {
                    let nr = self.get_var("NR").num() + 1.0;
                    self.set_var("NR", Value::Num(nr));
                }
                record
            }
        };
        let Some(record) = record else {
            return Ok(Value::Num(0.0));
        };
        match target {
            Some(target) => {
                self.assign(target, Value::StrNum(record))?;
            }
            None => self.set_record(record),
        }
        Ok(Value::Num(1.0))
    }
}

/// Reads one record with record separator `rs` (newline, one character,
/// `""` for paragraphs, or a regex).
fn read_record(
    source: &mut RecordSource,
    rs: &str,
    limit: usize,
) -> std::io::Result<Option<String>> {
    if let RecordSource::Stream(reader) = source {
        if rs == "\n" || rs.chars().count() == 1 {
            let delimiter = rs.as_bytes()[0];
            let mut bytes = Vec::new();
            let n = goccia_interp::io::read_until_capped(
                &mut *reader.lock(),
                delimiter,
                &mut bytes,
                limit,
            )?;
            if n == 0 {
                return Ok(None);
            }
            if bytes.last() == Some(&delimiter) {
                bytes.pop();
            }
            return Ok(Some(goccia_interp::raw::decode_vec(bytes)));
        }
        let data = goccia_interp::io::read_to_end_capped(&mut *reader.lock(), limit)?;
        *source = RecordSource::Data { data, pos: 0 };
    }
    let RecordSource::Data { data, pos } = source else {
        unreachable!("converted above")
    };
    if *pos >= data.len() {
        return Ok(None);
    }
    let rest = &data[*pos..];
    if rs.is_empty() {
        // Paragraph mode: skip leading newlines, end at a blank line.
        let start = rest.iter().take_while(|b| **b == b'\n').count();
        if start >= rest.len() {
            *pos = data.len();
            return Ok(None);
        }
        let body = &rest[start..];
        let end = body
            .windows(2)
            .position(|w| w == b"\n\n")
            .unwrap_or(body.len());
        let record = goccia_interp::raw::decode(&body[..end])
            .trim_end_matches('\n')
            .to_string();
        let mut next = start + end;
        while next < rest.len() && rest[next] == b'\n' {
            next += 1;
        }
        *pos += next;
        return Ok(Some(record));
    }
    if rs.chars().count() == 1 {
        let delimiter = rs.as_bytes()[0];
        let end = rest.iter().position(|b| *b == delimiter);
        let record = goccia_interp::raw::decode(&rest[..end.unwrap_or(rest.len())]).into_owned();
        *pos += end.map_or(rest.len(), |e| e + 1);
        return Ok(Some(record));
    }
    let text = goccia_interp::raw::decode(rest).into_owned();
    let matcher = Matcher::from_rust(&rust_regex(rs), false).ok();
    let found = matcher
        .as_ref()
        .and_then(|m| m.find_at(&text, 0).filter(|f| f.end > f.start));
    match found {
        Some(found) => {
            *pos += found.end;
            Ok(Some(text[..found.start].to_string()))
        }
        None => {
            *pos = data.len();
            Ok(Some(text.trim_end_matches('\n').to_string()))
        }
    }
}
