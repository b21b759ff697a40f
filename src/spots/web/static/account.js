// Passkeys: register one when signed in (My games), sign in with one (the sign-in page). The server's options
// and the browser's answers travel as WebAuthn's JSON (PublicKeyCredential.parse...FromJSON, credential.toJSON).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  async function post(url, body) {
    const r = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.message || String(r.status));
    return data;
  }

  const register = $("passkey-register");
  if (register) {
    register.addEventListener("click", async () => {
      const say = $("passkey-message");
      register.disabled = true;
      try {
        const options = await post("/api/passkeys/register/options");
        const credential = await navigator.credentials.create({
          publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options),
        });
        await post("/api/passkeys/register", credential.toJSON());
        say.textContent = register.dataset.done;
        say.dataset.done = "1";
      } catch (err) {
        say.textContent = register.dataset.failed;
        say.title = err.message;
      } finally {
        register.disabled = false;
      }
    });
  }

  const signin = $("passkey-signin");
  if (signin) {
    signin.addEventListener("click", async () => {
      const say = $("account-error");
      signin.disabled = true;
      try {
        const options = await post("/api/passkeys/signin/options");
        const credential = await navigator.credentials.get({
          publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options),
        });
        const data = await post("/api/passkeys/signin", { credential: credential.toJSON(), next: signin.dataset.next });
        location.href = data.next;
      } catch (err) {
        say.textContent = signin.dataset.failed;
        say.title = err.message;
      } finally {
        signin.disabled = false;
      }
    });
  }
})();
