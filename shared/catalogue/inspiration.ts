/**
 * The inspiration resource's operation: search the saved inspiring posts.
 */
import type { Inspiration } from '../base';
import { op } from './spec';

export const INSPIRATION_OPERATIONS = {
	searchInspirations: op<Inspiration[]>()({
		key: 'searchInspirations',
		resource: 'inspiration',
		action: 'search',
		name: 'Search Inspirations',
		description: 'Searches saved inspiring posts by text, minimum likes and format.',
		method: 'GET',
		path: '/inspirations',
		scope: 'posts:read',
		cost: 0,
		fields: [
			{
				name: 'search',
				label: 'Search',
				description: 'Words to look for in the saved posts.',
				type: 'string',
				in: 'query',
				maxLength: 500,
			},
			{
				name: 'minLikes',
				label: 'Minimum Likes',
				description: 'Only posts with at least this many likes.',
				type: 'integer',
				in: 'query',
				min: 0,
				max: 100000000,
			},
			{
				name: 'format',
				label: 'Format',
				description: 'Only posts of this format.',
				type: 'string',
				in: 'query',
				suggestions: [
					{ value: 'text', label: 'Text' },
					{ value: 'image', label: 'Image' },
					{ value: 'carousel', label: 'Carousel' },
					{ value: 'video', label: 'Video' },
					{ value: 'poll', label: 'Poll' },
				],
			},
		],
		list: { keys: ['inspirations'] },
		sample: {
			id: 'ins_5521',
			text: 'I was fired on a Tuesday. By Friday I had a plan…',
			author: 'Dana Ortiz',
			format: 'text',
			likes: 5120,
			comments: 301,
			url: 'https://social.example/posts/5521',
		},
		outputFields: [
			{ key: 'id', label: 'Inspiration ID' },
			{ key: 'text', label: 'Text' },
			{ key: 'author', label: 'Author' },
			{ key: 'format', label: 'Format' },
			{ key: 'likes', label: 'Likes', type: 'integer' },
			{ key: 'url', label: 'URL' },
		],
	}),
} as const;
