from allauth.account.forms import LoginForm
from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _

from .models import Platform


def _https_url_fields(field: models.Field, **kwargs) -> forms.Field | None:
    """LMS addresses are HTTPS: a pasted one without a scheme gets https://."""
    if isinstance(field, models.URLField):
        kwargs["assume_scheme"] = "https"
    return field.formfield(**kwargs)


class PlatformForm(forms.ModelForm):
    deployment_ids = forms.CharField(
        label=_("Deployment IDs"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "One per line. The LMS shows it after you add the tool (Canvas: next to the developer key)."
        ),
    )

    class Meta:
        model = Platform
        formfield_callback = _https_url_fields
        fields = [
            "name",
            "issuer",
            "client_id",
            "deployment_ids",
            "key_set_url",
            "auth_login_url",
            "access_token_url",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.initial["deployment_ids"] = "\n".join(self.instance.deployment_ids or [])

    def clean_deployment_ids(self) -> list[str]:
        ids = [line.strip() for line in self.cleaned_data["deployment_ids"].splitlines() if line.strip()]
        if not ids:
            raise forms.ValidationError(_("Enter at least one deployment ID."))
        return list(dict.fromkeys(ids))


class LinkSignInForm(LoginForm):
    """allauth's password sign-in (with its limits on failed tries), for the one account a launch's email
    named: the address is the launch's, never one typed or posted."""

    def __init__(self, data=None, *, email: str, **kwargs):
        if data is not None:
            data = {"login": email, "password": data.get("password", "")}
        super().__init__(data, initial={"login": email}, **kwargs)
        self.fields["login"].widget = forms.HiddenInput()
        if "remember" in self.fields:
            self.fields["remember"].widget = forms.HiddenInput()  # a device of the LMS: never remembered
