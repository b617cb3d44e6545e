//! ELF: class, byte order, type, machine, ABI, how it is linked, its
//! interpreter, the notes `file` reports (build id, ABI tag) and whether a
//! symbol table is left — read from the headers as `file` reads them.

/// The fields of one ELF file, read with its class and byte order.
struct Elf<'a> {
    data: &'a [u8],
    wide: bool,
    little: bool,
}

impl Elf<'_> {
    fn u16(&self, at: usize) -> Option<u64> {
        let bytes: [u8; 2] = self.data.get(at..at + 2)?.try_into().ok()?;
        Some(if self.little {
            u16::from_le_bytes(bytes)
        } else {
            u16::from_be_bytes(bytes)
        } as u64)
    }

    fn u32(&self, at: usize) -> Option<u64> {
        let bytes: [u8; 4] = self.data.get(at..at + 4)?.try_into().ok()?;
        Some(if self.little {
            u32::from_le_bytes(bytes)
        } else {
            u32::from_be_bytes(bytes)
        } as u64)
    }

    fn u64(&self, at: usize) -> Option<u64> {
        let bytes: [u8; 8] = self.data.get(at..at + 8)?.try_into().ok()?;
        Some(if self.little {
            u64::from_le_bytes(bytes)
        } else {
            u64::from_be_bytes(bytes)
        })
    }

    /// An address-sized field: 8 bytes in a 64-bit file, 4 in a 32-bit one.
    fn word(&self, at: usize) -> Option<u64> {
        if self.wide {
            self.u64(at)
        } else {
            self.u32(at)
        }
    }

    /// The program headers: (type, offset, size in the file).
    fn segments(&self) -> Vec<(u64, usize, usize)> {
        let (offset, size, count) = if self.wide {
            (self.u64(32), self.u16(54), self.u16(56))
        } else {
            (self.u32(28), self.u16(42), self.u16(44))
        };
        let (Some(offset), Some(size), Some(count)) = (offset, size, count) else {
            return Vec::new();
        };
        (0..count.min(4096))
            .filter_map(|index| {
                let at = (offset + index * size) as usize;
                let kind = self.u32(at)?;
                let (file_offset, file_size) = if self.wide {
                    (self.u64(at + 8)?, self.u64(at + 32)?)
                } else {
                    (self.u32(at + 4)?, self.u32(at + 16)?)
                };
                Some((kind, file_offset as usize, file_size as usize))
            })
            .collect()
    }

    /// The section headers: (type, offset, size).
    fn sections(&self) -> Vec<(u64, usize, usize)> {
        let (offset, size, count) = if self.wide {
            (self.u64(40), self.u16(58), self.u16(60))
        } else {
            (self.u32(32), self.u16(46), self.u16(48))
        };
        let (Some(offset), Some(size), Some(count)) = (offset, size, count) else {
            return Vec::new();
        };
        (0..count.min(65535))
            .filter_map(|index| {
                let at = (offset + index * size) as usize;
                let kind = self.u32(at + 4)?;
                let (file_offset, file_size) = if self.wide {
                    (self.u64(at + 24)?, self.u64(at + 32)?)
                } else {
                    (self.u32(at + 16)?, self.u32(at + 20)?)
                };
                Some((kind, file_offset as usize, file_size as usize))
            })
            .collect()
    }

    /// Whether the dynamic section's `DT_FLAGS_1` says position-independent
    /// executable (what makes `file` say "pie executable", not "shared
    /// object").
    fn is_pie(&self, dynamic: (usize, usize)) -> bool {
        const DT_FLAGS_1: u64 = 0x6fff_fffb;
        const DF_1_PIE: u64 = 0x0800_0000;
        let entry = if self.wide { 16 } else { 8 };
        let (offset, size) = dynamic;
        (0..size / entry)
            .map_while(|index| {
                let at = offset + index * entry;
                Some((self.word(at)?, self.word(at + entry / 2)?))
            })
            .take_while(|(tag, _)| *tag != 0)
            .any(|(tag, value)| tag == DT_FLAGS_1 && value & DF_1_PIE != 0)
    }

    /// The build id and ABI tag notes in `(offset, size)`, as `file`
    /// words them, in the order they come.
    fn notes(&self, (offset, size): (usize, usize), out: &mut Vec<String>) {
        let align4 = |n: usize| n.div_ceil(4) * 4;
        let mut at = offset;
        let end = offset.saturating_add(size).min(self.data.len());
        while at + 12 <= end {
            let (Some(name_size), Some(desc_size), Some(kind)) =
                (self.u32(at), self.u32(at + 4), self.u32(at + 8))
            else {
                return;
            };
            let (name_size, desc_size) = (name_size as usize, desc_size as usize);
            let name_at = at + 12;
            let desc_at = name_at + align4(name_size);
            let Some(desc) = self.data.get(desc_at..desc_at + desc_size) else {
                return;
            };
            if self.data.get(name_at..name_at + name_size) == Some(b"GNU\0") {
                match kind {
                    // NT_GNU_ABI_TAG: the OS and its oldest kernel version.
                    1 if desc_size >= 16 => {
                        let os = match self.u32(desc_at) {
                            Some(0) => "GNU/Linux",
                            Some(1) => "GNU/Hurd",
                            Some(2) => "GNU/Solaris",
                            _ => "unknown",
                        };
                        let version: Vec<String> = (1..4)
                            .filter_map(|i| self.u32(desc_at + 4 * i))
                            .map(|part| part.to_string())
                            .collect();
                        out.push(format!("for {os} {}", version.join(".")));
                    }
                    // NT_GNU_BUILD_ID: named by its length, as `file` does.
                    3 => {
                        let kind = match desc_size {
                            8 => "xxHash",
                            16 => "md5/uuid",
                            20 => "sha1",
                            _ => "?",
                        };
                        let hex: String = desc.iter().map(|b| format!("{b:02x}")).collect();
                        out.push(format!("BuildID[{kind}]={hex}"));
                    }
                    _ => {}
                }
            }
            at = desc_at + align4(desc_size);
        }
    }
}

/// The description of an ELF file (`data` starts with its magic).
/// The MIME type `file -i` gives an ELF file, from its description.
pub(super) fn mime(description: &str) -> &'static str {
    if description.contains("pie executable") {
        "application/x-pie-executable"
    } else if description.contains(" executable") {
        "application/x-executable"
    } else if description.contains("shared object") {
        "application/x-sharedlib"
    } else if description.contains("relocatable") {
        "application/x-object"
    } else if description.contains("core file") {
        "application/x-coredump"
    } else {
        "application/octet-stream"
    }
}

pub(super) fn describe(data: &[u8]) -> String {
    let wide = match data.get(4) {
        Some(1) => false,
        Some(2) => true,
        Some(&class) if data.len() > 5 => return format!("ELF, unknown class {class}"),
        _ => return "ELF".to_string(),
    };
    // A byte order file cannot read leaves the class alone, as file says.
    let little = match data.get(5) {
        Some(1) => true,
        Some(2) => false,
        _ => return format!("ELF {}-bit", if wide { 64 } else { 32 }),
    };
    let elf = Elf { data, wide, little };
    let mut parts = vec![format!(
        "ELF {}-bit {}",
        if wide { 64 } else { 32 },
        if little { "LSB" } else { "MSB" }
    )];
    let segments = elf.segments();
    let segment = |wanted: u64| {
        segments
            .iter()
            .find(|(kind, ..)| *kind == wanted)
            .map(|(_, offset, size)| (*offset, *size))
    };
    const PT_DYNAMIC: u64 = 2;
    const PT_INTERP: u64 = 3;
    const PT_NOTE: u64 = 4;
    let kind = match elf.u16(16) {
        Some(1) => "relocatable".to_string(),
        Some(2) => "executable".to_string(),
        Some(3) if segment(PT_DYNAMIC).is_some_and(|dynamic| elf.is_pie(dynamic)) => {
            "pie executable".to_string()
        }
        Some(3) => "shared object".to_string(),
        Some(4) => "core file".to_string(),
        other => format!("unknown type {}", other.unwrap_or(0)),
    };
    parts[0].push(' ');
    parts[0].push_str(&kind);
    let machine = match elf.u16(18) {
        Some(3) => "Intel 80386".to_string(),
        Some(8) => "MIPS".to_string(),
        Some(0x14) => "PowerPC".to_string(),
        Some(0x15) => "64-bit PowerPC or cisco 7500".to_string(),
        Some(0x16) => "IBM S/390".to_string(),
        Some(0x28) => "ARM".to_string(),
        Some(0x2b) => "SPARC V9".to_string(),
        Some(0x3e) => "x86-64".to_string(),
        Some(0xb7) => "ARM aarch64".to_string(),
        Some(0xf3) => "UCB RISC-V".to_string(),
        other => format!("*unknown arch {:#x}*", other.unwrap_or(0)),
    };
    parts.push(machine);
    let abi = match data.get(7) {
        Some(0) => "SYSV",
        Some(3) => "GNU/Linux",
        Some(9) => "FreeBSD",
        _ => "unknown",
    };
    parts.push(format!(
        "version {} ({abi})",
        data.get(6).copied().unwrap_or(0)
    ));
    if !segments.is_empty() {
        let interpreter = segment(PT_INTERP).and_then(|(offset, size)| {
            let bytes = data.get(offset..offset + size)?;
            Some(String::from_utf8_lossy(bytes.split(|b| *b == 0).next()?).into_owned())
        });
        // Linked dynamically means a dynamic section: an interpreter alone
        // is still "statically linked", as `file` says.
        if segment(PT_DYNAMIC).is_some() {
            parts.push("dynamically linked".to_string());
        } else {
            parts.push("statically linked".to_string());
        }
        if let Some(interpreter) = interpreter {
            parts.push(format!("interpreter {interpreter}"));
        }
        for (kind, offset, size) in &segments {
            if *kind == PT_NOTE {
                elf.notes((*offset, *size), &mut parts);
            }
        }
    }
    let sections = elf.sections();
    const SHT_SYMTAB: u64 = 2;
    if sections.is_empty() {
        // `file` says so only of a file it read program headers from.
        if !segments.is_empty() {
            parts.push("no section header".to_string());
        }
    } else if sections.iter().any(|(kind, ..)| *kind == SHT_SYMTAB) {
        parts.push("not stripped".to_string());
    } else {
        parts.push("stripped".to_string());
    }
    parts.join(", ")
}
