// Runs the WebAuthn ceremony of a passkey step (progressive enhancement): the form rendered by webauthn.mustache is
// hidden until this script shows it (only where the browser can do WebAuthn); its submit calls navigator.credentials.create/get with the options from
// data-options, puts the credential as JSON (binary members in base64url) into the hidden field and posts the form.
// Failures are announced in the status element and leave the other ways to sign in on the page.
(function () {
  "use strict";

  function decode(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4 !== 0) base64 += "=";
    var binary = atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  function encode(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function decodeDescriptors(list) {
    return (list || []).map(function (descriptor) {
      var copy = Object.assign({}, descriptor);
      copy.id = decode(descriptor.id);
      return copy;
    });
  }

  function creationOptions(options) {
    var publicKey = Object.assign({}, options);
    publicKey.challenge = decode(options.challenge);
    publicKey.user = Object.assign({}, options.user, { id: decode(options.user.id) });
    publicKey.excludeCredentials = decodeDescriptors(options.excludeCredentials);
    return publicKey;
  }

  function requestOptions(options) {
    var publicKey = Object.assign({}, options);
    publicKey.challenge = decode(options.challenge);
    publicKey.allowCredentials = decodeDescriptors(options.allowCredentials);
    return publicKey;
  }

  function serialize(credential) {
    var response = credential.response;
    var json = {
      id: credential.id,
      rawId: encode(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || null,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
      response: { clientDataJSON: encode(response.clientDataJSON) }
    };
    if (response.attestationObject) {
      json.response.attestationObject = encode(response.attestationObject);
      if (response.getTransports) json.response.transports = response.getTransports();
    } else {
      json.response.authenticatorData = encode(response.authenticatorData);
      json.response.signature = encode(response.signature);
      json.response.userHandle = response.userHandle ? encode(response.userHandle) : null;
    }
    return json;
  }

  function enhance(container) {
    var form = container.querySelector("form");
    var status = container.parentNode.querySelector(".webauthn-status");
    var say = function (text) { if (status) status.textContent = text; };
    if (!window.PublicKeyCredential || !navigator.credentials || !window.isSecureContext) {
      say(container.getAttribute("data-unsupported"));
      return;
    }
    var field = form.elements.namedItem(container.getAttribute("data-field"));
    var button = form.querySelector("button");
    var ceremony = container.getAttribute("data-webauthn");
    container.hidden = false;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var options;
      try {
        options = JSON.parse(container.getAttribute("data-options"));
      } catch (error) {
        say(container.getAttribute("data-failed"));
        return;
      }
      button.disabled = true;
      say(container.getAttribute("data-working"));
      var pending = ceremony === "create"
        ? navigator.credentials.create({ publicKey: creationOptions(options) })
        : navigator.credentials.get({ publicKey: requestOptions(options) });
      pending.then(function (credential) {
        if (!credential) throw new Error("no credential");
        field.value = JSON.stringify(serialize(credential));
        form.submit();
      }).catch(function (error) {
        button.disabled = false;
        var cancelled = error && (error.name === "NotAllowedError" || error.name === "AbortError");
        say(container.getAttribute(cancelled ? "data-cancelled" : "data-failed"));
      });
    });
  }

  document.querySelectorAll("[data-webauthn]").forEach(enhance);
})();
