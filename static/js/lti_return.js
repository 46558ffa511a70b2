// Deep linking: send the chosen game back to the LMS at once (the button does it without scripts).
document.querySelectorAll("form[data-auto-submit]").forEach((form) => /** @type {HTMLFormElement} */ (form).submit());
