// In-app navigation without a page load, for every <a data-app-link> (components/link.tsx), by
// one click listener on the document instead of a handler per link. It takes the clicks React
// Router's <Link> takes (primary button, no modifier key, no other target, not handled already,
// same origin) and navigates the same way: replacing the history entry when the URL is the same
// or the link says so (data-replace), keeping the scroll position when it says so (data-keep-scroll).
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { APP_LINK_ATTRIBUTE } from "#app/components/link.tsx";

export function useLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const anchor = event.target instanceof Element ? event.target.closest(`a[${APP_LINK_ATTRIBUTE}]`) : null;
      if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
      const url = new URL(anchor.href);
      const here = window.location;
      if (url.origin !== here.origin) return;
      // Only the fragment differs: the browser scrolls to it, as it would without scripts.
      if (url.hash && url.pathname === here.pathname && url.search === here.search) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      void navigate(to, {
        replace: anchor.hasAttribute("data-replace") || to === here.pathname + here.search + here.hash,
        preventScrollReset: anchor.hasAttribute("data-keep-scroll"),
      });
    }
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
