//! The network part of a spec made into the gateway's secrets
//! (docs/network.md): names and bindings checked with the rest of the spec,
//! values read only when the sandbox is built.

use goccia_core::net::{Secret, SecretHeader, Secrets};

use super::{NetworkSpec, SpecError};

impl NetworkSpec {
    /// Checks the secrets' names and the header bindings (each naming only
    /// secrets given with it), without reading a value.
    pub(super) fn check_secrets(&self) -> Result<(), SpecError> {
        let mut headers = Vec::new();
        for text in &self.secret_headers {
            headers.push(
                SecretHeader::parse(text)
                    .map_err(|error| SpecError::new("network.secretHeaders", error.to_string()))?,
            );
        }
        let stand_ins = self
            .secrets
            .keys()
            .map(|name| Secret::new(name, "unread"))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| SpecError::new("network.secrets", error.to_string()))?;
        Secrets::new(stand_ins, headers)
            .map_err(|error| SpecError::new("network.secretHeaders", error.to_string()))?;
        Ok(())
    }

    /// The secrets with their values, read now from their sources.
    pub(super) fn secrets(&self) -> Result<Secrets, SpecError> {
        let mut secrets = Vec::new();
        for (name, source) in &self.secrets {
            let value = source.read().map_err(|why| {
                SpecError::new("network.secrets", format!("secret `{name}`: {why}"))
            })?;
            secrets.push(
                Secret::new(name, value)
                    .map_err(|error| SpecError::new("network.secrets", error.to_string()))?,
            );
        }
        let headers = self
            .secret_headers
            .iter()
            .map(|text| SecretHeader::parse(text).expect("checked"))
            .collect();
        Secrets::new(secrets, headers)
            .map_err(|error| SpecError::new("network.secretHeaders", error.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SandboxSpec, SecretSource};

    #[test]
    fn a_value_written_out_is_refused_and_a_given_one_is_never_echoed() {
        let refused = serde_json::from_str::<SandboxSpec>(
            r#"{"network": {"secrets": {"T": "plain-value"}}}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(refused.contains("@FILE or env:VAR"), "{refused}");
        let spec: SandboxSpec = serde_json::from_str(
            r#"{"network": {"secrets": {"T": {"value": "tok-abcdef"}}, "secretHeaders": ["h:Authorization=Bearer {T}"]}}"#,
        )
        .unwrap();
        spec.validate().unwrap();
        let echoed = serde_json::to_string(&spec).unwrap();
        assert!(!echoed.contains("tok-abcdef"), "{echoed}");
        assert!(!format!("{spec:?}").contains("tok-abcdef"));
        assert_eq!(
            "env:HOME".parse::<SecretSource>().unwrap(),
            SecretSource::Env("HOME".into())
        );
    }

    #[test]
    fn bindings_name_given_secrets_and_sources_must_be_readable() {
        let spec: SandboxSpec = serde_json::from_str(
            r#"{"network": {"secrets": {"T": "env:GOCCIA_TEST_UNSET_VARIABLE"}, "secretHeaders": ["h:X={U}"]}}"#,
        )
        .unwrap();
        let error = spec.validate().unwrap_err();
        assert_eq!(error.setting, "network.secretHeaders");
        let spec: SandboxSpec = serde_json::from_str(
            r#"{"network": {"secrets": {"T": "env:GOCCIA_TEST_UNSET_VARIABLE"}}}"#,
        )
        .unwrap();
        spec.validate().unwrap();
        let Err(error) = spec.build() else {
            panic!("built with an unreadable secret");
        };
        let error = error.to_string();
        assert!(
            error.contains("GOCCIA_TEST_UNSET_VARIABLE is not set"),
            "{error}"
        );
    }
}
