"""allauth hooks: invited staff sign up with the address their invitation went to, already verified."""

from allauth.account.adapter import DefaultAccountAdapter

INVITATION_SESSION_KEY = "classplay_invitation_token"


class AccountAdapter(DefaultAccountAdapter):
    def get_login_redirect_url(self, request):
        from django.urls import reverse

        if request.session.get(INVITATION_SESSION_KEY):
            return reverse("invitation_accept", args=[request.session[INVITATION_SESSION_KEY]])
        return super().get_login_redirect_url(request)
