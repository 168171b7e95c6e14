// The words and numbers of SSH-key proof of possession that the server and the web both use
// (plain values only: the web imports this file).

/** The SSHSIG namespace (`ssh-keygen -Y sign -n`): a signature made for git or anything else
 *  does not count here. */
export const SSH_KEY_NAMESPACE = "faultline";
export const SSH_KEY_NONCE_SECONDS = 15 * 60;

export const SSH_PROOF_ERRORS = {
  nonce: "This signing code has expired or was already used: sign the new code shown with your SSH key settings.",
  malformed: "The signature could not be read: paste the whole block from -----BEGIN SSH SIGNATURE----- to -----END SSH SIGNATURE-----.",
  otherKey: "The signature was not made with this key: sign the code with the private key that belongs to the public key you entered.",
  namespace: `The signature was made for another purpose: sign with -n ${SSH_KEY_NAMESPACE}.`,
  mismatch: "The signature does not match the code: sign exactly the code shown, with echo -n.",
  unsupported: "This kind of signature is not supported: sign with ssh-keygen -Y sign (OpenSSH 8.1 or newer).",
} as const;

/** The private key file OpenSSH makes by default for a key type. */
export function defaultKeyFile(publicKey: string): string {
  const type = publicKey.trim().split(/\s+/)[0] ?? "";
  if (type === "ssh-rsa") return "~/.ssh/id_rsa";
  if (type.startsWith("ecdsa-")) return "~/.ssh/id_ecdsa";
  return "~/.ssh/id_ed25519";
}

/** The command a user runs to sign `nonce` with the private key in `keyFile`. */
export function signCommand(nonce: string, keyFile = "~/.ssh/id_ed25519"): string {
  return `echo -n '${nonce}' | ssh-keygen -Y sign -n ${SSH_KEY_NAMESPACE} -f ${keyFile}`;
}
