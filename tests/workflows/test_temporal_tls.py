"""A secured Temporal connection: the settings' TLS (CA, client certificate and key, server name)
and API key reach `Client.connect`. The dev server speaks no TLS, so a TLS-terminating proxy
(Python's ssl, requiring a client certificate: mutual TLS) stands in front of it, and the
service's own `connect` must get through it with the settings and fail without them."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from temporalio.api.workflowservice.v1 import GetSystemInfoRequest
from temporalio.service import TLSConfig
from temporalio.testing import WorkflowEnvironment

from governed_memory.memory.errors import InvalidInput, ServiceUnavailable
from governed_memory.memory.settings import Settings
from governed_memory.shell.temporal import connect, connect_options, tls_config

SERVER_NAME = "temporal.test"


def _cert(
    subject: str, issuer: tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None, *, ca: bool
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
    now = dt.datetime.now(dt.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer[0].subject if issuer else name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if not ca:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName(subject)]), critical=False
        )
    signer = issuer[1] if issuer else key
    return builder.sign(signer, hashes.SHA256()), key


def _write(path: Path, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> None:
    path.with_suffix(".crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    path.with_suffix(".key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )


@pytest.fixture
def pki(tmp_path: Path) -> Path:
    ca = _cert("test-ca", None, ca=True)
    _write(tmp_path / "ca", *ca)
    _write(tmp_path / "server", *_cert(SERVER_NAME, ca, ca=False))
    _write(tmp_path / "client", *_cert("memory-worker", ca, ca=False))
    return tmp_path


@contextlib.asynccontextmanager
async def tls_proxy(pki: Path, upstream: str) -> AsyncIterator[int]:
    """TLS (mutual: a client certificate signed by the test CA is required) in front of the
    plaintext dev server; bytes are relayed as they are (gRPC's HTTP/2 inside)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(pki / "server.crt", pki / "server.key")
    context.load_verify_locations(pki / "ca.crt")
    context.verify_mode = ssl.CERT_REQUIRED
    context.set_alpn_protocols(["h2"])
    host, port = upstream.rsplit(":", 1)

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(host, int(port))
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=context)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()


def _settings(tmp_path: Path, address: str, **tls: object) -> Settings:
    return Settings(data_dir=tmp_path / "data", temporal_address=address, **tls)  # type: ignore[arg-type]


async def test_the_service_connects_through_mutual_tls(
    temporal_env: WorkflowEnvironment, pki: Path, tmp_path: Path
) -> None:
    upstream = temporal_env.client.service_client.config.target_host
    async with tls_proxy(pki, upstream) as port:
        secured = _settings(
            tmp_path,
            f"127.0.0.1:{port}",
            temporal_tls_ca_file=pki / "ca.crt",
            temporal_tls_cert_file=pki / "client.crt",
            temporal_tls_key_file=pki / "client.key",
            temporal_tls_server_name=SERVER_NAME,
        )
        client = await connect(secured)
        assert await client.workflow_service.get_system_info(GetSystemInfoRequest())
        # No client certificate: the proxy refuses the handshake.
        without_cert = _settings(
            tmp_path,
            f"127.0.0.1:{port}",
            temporal_tls_ca_file=pki / "ca.crt",
            temporal_tls_server_name=SERVER_NAME,
        )
        with pytest.raises(ServiceUnavailable):
            await asyncio.wait_for(connect(without_cert), timeout=30)


def test_tls_and_api_key_reach_client_connect(pki: Path, tmp_path: Path) -> None:
    assert tls_config(_settings(tmp_path, "x:1")) is False  # the embedded dev server: plain
    assert tls_config(_settings(tmp_path, "x:1", temporal_tls=True)) is True  # system CAs
    tls = tls_config(
        _settings(
            tmp_path,
            "x:1",
            temporal_tls_ca_file=pki / "ca.crt",
            temporal_tls_cert_file=pki / "client.crt",
            temporal_tls_key_file=pki / "client.key",
            temporal_tls_server_name=SERVER_NAME,
        )
    )
    assert isinstance(tls, TLSConfig)
    assert tls.server_root_ca_cert == (pki / "ca.crt").read_bytes()
    assert tls.client_cert == (pki / "client.crt").read_bytes()
    assert tls.domain == SERVER_NAME
    options = connect_options(
        _settings(tmp_path, "x:1", temporal_tls=True, temporal_api_key="cloud-key")
    )
    assert options["api_key"] == "cloud-key"
    assert options["tls"] is True
    with pytest.raises(InvalidInput, match="both a client certificate and its key"):
        tls_config(_settings(tmp_path, "x:1", temporal_tls_cert_file=pki / "client.crt"))
    with pytest.raises(InvalidInput, match="is not a file"):
        tls_config(_settings(tmp_path, "x:1", temporal_tls_ca_file=pki / "missing.crt"))
