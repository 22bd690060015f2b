"""Every interface string the site's own extensions print, in both languages."""

from __future__ import annotations

TEXTS = {
    "ko": {
        "switch_label": "English",
        "switch_title": "이 페이지를 영어로 보기",
        "lesson_position": "{part} · 전체 {total}강 중 {number}강",
        "reading_time": "읽는 데 약 {minutes}분",
        "tags": "태그",
        "all_tags": "모든 태그",
        "tag_page_title": "태그: {tag}",
        "tag_page_intro": "이 태그가 붙은 강의: {count}개",
        "progress_toggle": "다 읽은 강의로 표시",
        "progress_done_label": "다 읽음",
        "progress_count": "{total}강 중 {done}강을 읽었습니다",
        "progress_reset": "진도 초기화",
        "progress_confirm": "이 브라우저에 저장한 진도를 모두 지울까요?",
        "progress_note": "진도는 이 브라우저에만 저장되며 어디에도 전송되지 않습니다.",
        "provenance": (
            "이 페이지의 출력은 {when}에 {device}에서 실행해 만들었습니다. 백엔드 {backend}, "
            "디바이스 {count}개, JAX {jax}, jaxlib {jaxlib}, 실행 시간 {seconds}초."
        ),
        "provenance_missing": "이 페이지의 실행 기록을 찾지 못했습니다.",
        "mental-model": "멘탈 모델",
        "trap": "함정",
        "why-it-matters": "왜 중요한가",
        "exercise": "연습 문제",
        "solution_show": "풀이 보기",
        "solution_hide": "풀이 숨기기",
        "source_of": "소스 코드: {name}",
        "report_page": "페이지",
        "report_outputs": "출력",
        "report_executed": "이번 빌드에서 실행",
        "report_cache": "캐시에서 가져옴",
        "report_seconds": "실행 시간(초)",
        "report_device": "디바이스",
        "report_backend": "백엔드",
        "report_versions": "JAX / jaxlib",
        "report_when": "실행 시각(UTC)",
        "report_empty": "이 빌드에는 실행한 강의가 없습니다.",
    },
    "en": {
        "switch_label": "한국어",
        "switch_title": "Read this page in Korean",
        "lesson_position": "{part} · Lesson {number} of {total}",
        "reading_time": "About {minutes} min read",
        "tags": "Tags",
        "all_tags": "All tags",
        "tag_page_title": "Tag: {tag}",
        "tag_page_intro": "Lessons with this tag: {count}",
        "progress_toggle": "Mark this lesson as done",
        "progress_done_label": "Done",
        "progress_count": "{done} of {total} lessons done",
        "progress_reset": "Reset progress",
        "progress_confirm": "Clear the progress saved in this browser?",
        "progress_note": "Your progress is kept in this browser only and is never sent anywhere.",
        "provenance": (
            "The outputs on this page were made on {when} on {device} ({backend} backend, "
            "{count} device(s)) with JAX {jax} and jaxlib {jaxlib}, in {seconds} s of execution."
        ),
        "provenance_missing": "No execution record was found for this page.",
        "mental-model": "Mental model",
        "trap": "Trap",
        "why-it-matters": "Why it matters",
        "exercise": "Exercise",
        "solution_show": "Show the solution",
        "solution_hide": "Hide the solution",
        "source_of": "Program source: {name}",
        "report_page": "Page",
        "report_outputs": "Outputs",
        "report_executed": "executed in this build",
        "report_cache": "taken from the cache",
        "report_seconds": "Execution (s)",
        "report_device": "Device",
        "report_backend": "Backend",
        "report_versions": "JAX / jaxlib",
        "report_when": "Ran at (UTC)",
        "report_empty": "No lesson was executed for this build.",
    },
}


def text(language: str, key: str, **values) -> str:
    """The string ``key`` in ``language``, formatted with ``values``."""
    return TEXTS[language][key].format(**values)
